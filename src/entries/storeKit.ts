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
  // The closed-store guard
  openStoreCall,
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
  // Knowledge-store options, revisions and records
  checkKnowledgeOptions,
  checkKnowledgeRevision,
  listNamespace,
  knowledgeStateToSave,
  readKnowledgeJson,
  // Persisted formats
  EXTENSION_KEY,
  ENVELOPE_VERSION,
  MAX_PENDING_MESSAGES,
  MAX_SUMMARY_COVERAGE,
  MAX_KNOWLEDGE_FACTS,
  MAX_ENTITY_PARTS,
  MAX_FACT_SOURCES,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TIME,
} from '../library';
export type {
  SessionKey,
  SessionMethod,
  EventMethod,
  KnowledgeMethod,
  StoreCall,
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
  CheckedAppend,
  RecordPlace,
  SnapshotPlace,
} from '../library';
