/**
 * `conversation-memory/store-kit`: the building blocks every store uses, for authors of custom
 * session, event and knowledge stores (the Node stores at `conversation-memory/node` are built on
 * them): session keys and namespaces, revisions, expiry, search scoring, the checks of each
 * method's options and of event-store arguments, the closed-store guard, the revisioned-store
 * contract the session and knowledge stores share (`RevisionedStore`), the JSON records of
 * actions, configs, snapshots and knowledge states, the bounds of decoded state, the checker that
 * refuses misspelled options, and the reader that reads an options object once.
 * (`conversation-memory/knowledge` exports the knowledge stores' helpers too, until 1.0.)
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
  namespaceKeys,
  isStorageKey,
} from '../stores/kit/sessionKey';
export { expectedRevisionOf, checkExpectedRevision } from '../stores/kit/revision';
export { checkSessionOptions, checkEventOptions } from '../stores/kit/methodOptions';
export { sessionTtlOf, sessionClockOf, isSessionExpired } from '../stores/kit/ttl';
export {
  SWEEP_BATCH,
  namespaceToDeleteOf,
  pruneOptionsOf,
  checkPruneBefore,
} from '../stores/kit/retention';
// The closed-store guard
export { openStoreCall } from '../stores/kit/storeCall';
// Search
export {
  DEFAULT_SEARCH_LIMIT,
  searchTerms,
  searchLimitOf,
  snippetOf,
  scoreSessionMessages,
  rankSearchResults,
  compareCodePoints,
} from '../stores/kit/search';
// Event-store arguments and records
export {
  checkAppend,
  readRangeOf,
  atVersionOf,
  checkAtVersion,
  snapshotEveryOf,
} from '../stores/kit/eventArgs';
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
} from '../stores/kit/eventRecords';
// Knowledge-store options, revisions and records
export { checkKnowledgeOptions } from '../stores/kit/methodOptions';
export { checkKnowledgeRevision } from '../stores/kit/revision';
export { listNamespace } from '../stores/kit/methodOptions';
export { knowledgeStateToSave, readKnowledgeJson } from '../stores/kit/knowledgeRecords';
// Persisted formats
export { EXTENSION_KEY } from '../codec/persisted';
export { ENVELOPE_VERSION } from '../codec/envelope';
export { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from '../model/state';
export { MAX_KNOWLEDGE_FACTS, MAX_ENTITY_PARTS } from '../knowledge/codec/knowledgeLimits';
export { MAX_FACT_SOURCES } from '../model/knowledge';
export {
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TIME,
} from '../knowledge/codec/knowledgeLimits';
export type { SessionKey, NamespaceKeys } from '../stores/kit/sessionKey';
export type { SessionMethod, EventMethod, KnowledgeMethod } from '../stores/kit/methodOptions';
export type { StoreCall } from '../stores/kit/storeCall';
export type {
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
} from '../stores/kit/revisionedStore';
export type { CheckedAppend } from '../stores/kit/eventArgs';
export type { RecordPlace, SnapshotPlace } from '../stores/kit/eventRecords';
