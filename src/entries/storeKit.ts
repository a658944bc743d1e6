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
// Arguments and messages
export { describeValue } from '../util/describeValue';
export { unknownOption } from '../util/unknownOption';
export { readOptionFields } from '../internal/readOptionFields';
// Session keys, revisions, expiry
export {
  MAX_SESSION_ID_LENGTH,
  sessionKeyOf,
  namespaceOf,
  parseSessionKey,
  sessionAddressOf,
  namespaceKeyPrefix,
  isStorageKey,
} from '../sessions/sessionKey';
export { expectedRevisionOf, checkExpectedRevision } from '../sessions/revision';
export { checkSessionOptions, checkEventOptions } from '../sessions/methodOptions';
export { sessionTtlOf, sessionClockOf, isSessionExpired } from '../sessions/ttl';
// Search
export {
  DEFAULT_SEARCH_LIMIT,
  searchTerms,
  searchLimitOf,
  snippetOf,
  scoreSessionMessages,
  rankSearchResults,
  compareCodePoints,
} from '../sessions/search';
// Event-store arguments and records
export {
  checkAppend,
  readRangeOf,
  atVersionOf,
  checkAtVersion,
  snapshotEveryOf,
} from '../eventStore/eventArgs';
export { DEFAULT_SNAPSHOT_EVERY, MAX_SNAPSHOT_EVERY } from '../log/eventLog';
export {
  encodeActionJson,
  readActionJson,
  applyStoredAction,
  encodeConfigJson,
  readConfigJson,
  sameConfig,
  checkSameConfig,
  encodeSnapshotJson,
  readSnapshotJson,
} from '../eventStore/eventRecords';
// Persisted formats
export { EXTENSION_KEY } from '../codec/persisted';
export { ENVELOPE_VERSION } from '../codec/envelope';
export { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from '../model/state';
export type { SessionKey } from '../sessions/sessionKey';
export type { SessionMethod, EventMethod } from '../sessions/methodOptions';
export type { CheckedAppend } from '../eventStore/eventArgs';
export type { RecordPlace, SnapshotPlace } from '../eventStore/eventRecords';
