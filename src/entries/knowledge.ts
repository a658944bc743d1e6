/**
 * `conversation-memory/knowledge` (browser-safe): entity memory, a temporal knowledge graph and
 * long-term knowledge memory, as facts in one plain immutable state, changed only by pure
 * reducers that return effects.
 *
 * @example
 * ```ts
 * import { createKnowledge } from 'conversation-memory/knowledge';
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/knowledge
 */
export { createKnowledge } from '../knowledge/createKnowledge';
export {
  DEFAULT_KNOWLEDGE_LIMITS,
  SINGLE_VALUED_RELATIONS,
  MAX_FACT_SOURCES,
} from '../model/knowledge';
// Knowledge stores and the knowledge-state codec.
export { decodeKnowledgeState } from '../codec/knowledgeState';
export { knowledgeStateToSave, readKnowledgeJson } from '../stores/kit/knowledgeRecords';
export {
  MAX_KNOWLEDGE_FACTS,
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TIME,
} from '../knowledge/codec/knowledgeLimits';
export {
  readReferenceKnowledgeJsonl,
  readReferenceKnowledgeRecord,
} from '../knowledge/codec/referenceKnowledge';
export { KnowledgeConflictError, KnowledgeCorruptError } from '../errors/knowledgeStoreErrors';
export { checkKnowledgeOptions } from '../stores/kit/methodOptions';
export { checkKnowledgeRevision } from '../stores/kit/revision';
export { listNamespace } from '../stores/kit/methodOptions';
export { InMemoryKnowledgeStore } from '../stores/knowledge/InMemoryKnowledgeStore';
export type { KnowledgeMethod } from '../stores/kit/methodOptions';
export type {
  KnowledgeStore,
  KnowledgeStoreOptions,
  KnowledgeSaveOptions,
  LoadedKnowledge,
  SavedKnowledge,
  KnowledgeListing,
  KnowledgeStamp,
} from '../stores/knowledge/types';
// The retention contract KnowledgeStore shares with the session and event stores
export type { RemovedCount, RetentionStore, StoreExpiryOptions } from '../stores/kit/retention';
// The contract KnowledgeStore shares with SessionStore
export type {
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
} from '../stores/kit/revisionedStore';
export type {
  KnowledgeState,
  KnowledgeCursors,
  KnowledgeLimits,
  Entity,
  EntityAttribute,
  Relation,
  KnowledgeEntry,
  FactRecord,
  FactSource,
  RetireReason,
  ExtractedEntity,
  ExtractedTriple,
} from '../model/knowledge';
export type {
  ExtractionSource,
  FactsExtractedPayload,
  RememberedPayload,
  ForgottenPayload,
  KnowledgeAction,
} from '../model/knowledgeActions';
export type {
  FactKind,
  MergeRule,
  KnowledgeEffect,
  FactAddedEffect,
  FactMergedEffect,
  FactRetiredEffect,
  FactsDroppedEffect,
  CursorMovedEffect,
} from '../model/knowledgeEffects';
export { knowledgeBlocks } from '../knowledge/retrieval/knowledgeBlocks';
export { scoreFacts } from '../knowledge/retrieval/scoreFacts';
export { BM25_K1, BM25_B } from '../knowledge/retrieval/bm25';
export { sanitizeKnowledgeText } from '../knowledge/retrieval/sanitizeKnowledgeText';
export {
  KNOWN_RELATIONSHIPS_HEADER,
  KNOWN_ENTITIES_HEADER,
  IMPORTANT_KNOWLEDGE_HEADER,
  GENERAL_KNOWLEDGE_HEADER,
  IMPORTANT_KNOWLEDGE_MIN,
  TRUNCATED_SUFFIX,
  BLOCK_SEPARATOR,
  RESERVED_HEADERS,
} from '../knowledge/retrieval/headers';
export type {
  FactScorer,
  FactDocument,
  ScoreFactsOptions,
} from '../knowledge/retrieval/scoreFacts';
export type {
  KnowledgeBlockModule,
  GraphBlockOptions,
  EntitiesBlockOptions,
  KnowledgeBlockOptions,
  KnowledgeBlocksOptions,
  KnowledgeBlock,
  KnowledgeBlocksResult,
} from '../knowledge/retrieval/types';
export {
  ENTITY_EXTRACTION_PROMPT,
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  TRIPLE_EXTRACTION_PROMPT,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
  EXTRACTION_MAX_TOKENS,
  DEFAULT_EXTRACTION_MODEL,
  renderExtractionConversation,
  entityExtractionPrompt,
  tripleExtractionPrompt,
  REMEMBER_TOOL,
  REMEMBER_PERSISTENT_TRUE,
  RECALL_TOOL,
  RECALL_DEFAULT_LIMIT,
} from '../knowledge/extraction/prompts';
export { readEntityAnswer } from '../knowledge/extraction/readEntityAnswer';
export { readTripleAnswer } from '../knowledge/extraction/readTripleAnswer';
export {
  MAX_ANSWER_CHARS,
  MAX_EXTRACTED_ITEMS,
  MAX_EXTRACTED_NAME_CHARS,
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
} from '../knowledge/extraction/answerLimits';
export {
  extractEntitiesLocally,
  extractTriplesLocally,
  LOCAL_USER_ENTITY,
} from '../knowledge/extraction/localExtractor';
export { KnowledgeExtractionError } from '../errors/knowledgeErrors';
export type { KnowledgeToolSpec } from '../knowledge/extraction/prompts';
export { knowledgeActions } from '../actions/knowledgeActions';
export { knowledgeTransition } from '../knowledge/knowledgeTransition';
export { factsExtracted } from '../knowledge/factsExtracted';
export { remembered, expiresAt } from '../knowledge/remembered';
export { forgotten, findEntry } from '../knowledge/forgotten';
export { clearKnowledge } from '../knowledge/clearKnowledge';
export { NEAR_DUPLICATE_SIMILARITY } from '../knowledge/nameShingles';
export { KEEP_HALF_LIFE_MS, ENTITY_IMPORTANCE } from '../knowledge/keepScore';
export {
  createEntityMemory,
  createKnowledgeGraph,
  createKnowledgeMemory,
} from '../agent/knowledge/createModules';
export { FORGET_TOOL } from '../agent/run/knowledgeTools';
export type { KnowledgeTransition } from '../knowledge/knowledgeDraft';
export type {
  EntityMemory,
  EntityMemoryOptions,
  KnowledgeGraph,
  KnowledgeGraphOptions,
  KnowledgeMemory,
  KnowledgeMemoryOptions,
  KnowledgeModule,
  KnowledgeListener,
  ExtractionPrompt,
} from '../agent/knowledge/moduleTypes';
