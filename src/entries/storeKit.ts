/**
 * `conversation-memory/store-kit`: the building blocks every store uses, for authors of custom
 * session and event stores (the Node stores at `conversation-memory/node` are built on them):
 * session keys and namespaces, revisions, expiry, search scoring, the checks of event-store
 * arguments, the JSON records of actions, configs and snapshots, the bounds of decoded state, the
 * checker that refuses misspelled options, and the reader that reads an options object once.
 *
 * @example
 * ```ts
 * import { sessionKeyOf, checkExpectedRevision } from 'conversation-memory/store-kit';
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/store-kit
 */
export {
  // Arguments and messages
  describeValue,
  unknownOption,
  readOptionFields,
  // Session keys, revisions, expiry
  MAX_SESSION_ID_LENGTH,
  sessionKeyOf,
  namespaceOf,
  parseSessionKey,
  sessionAddressOf,
  namespaceKeyPrefix,
  isStorageKey,
  expectedRevisionOf,
  checkExpectedRevision,
  checkSessionOptions,
  checkEventOptions,
  sessionTtlOf,
  sessionClockOf,
  isSessionExpired,
  // Search
  DEFAULT_SEARCH_LIMIT,
  searchTerms,
  searchLimitOf,
  snippetOf,
  scoreSessionMessages,
  rankSearchResults,
  compareCodePoints,
  // Event-store arguments and records
  checkAppend,
  readRangeOf,
  atVersionOf,
  checkAtVersion,
  snapshotEveryOf,
  DEFAULT_SNAPSHOT_EVERY,
  MAX_SNAPSHOT_EVERY,
  encodeActionJson,
  readActionJson,
  applyStoredAction,
  encodeConfigJson,
  readConfigJson,
  sameConfig,
  checkSameConfig,
  encodeSnapshotJson,
  readSnapshotJson,
  // Persisted formats
  EXTENSION_KEY,
  ENVELOPE_VERSION,
  MAX_PENDING_MESSAGES,
  MAX_SUMMARY_COVERAGE,
} from '../library';
export type {
  SessionKey,
  SessionMethod,
  EventMethod,
  CheckedAppend,
  RecordPlace,
  SnapshotPlace,
} from '../library';
