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
export {
  createKnowledge,
  DEFAULT_KNOWLEDGE_LIMITS,
  SINGLE_VALUED_RELATIONS,
  MAX_FACT_SOURCES,
} from '../library';
// Knowledge stores and the knowledge-state codec.
export {
  decodeKnowledgeState,
  knowledgeStateToSave,
  readKnowledgeJson,
  MAX_KNOWLEDGE_FACTS,
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TIME,
  readReferenceKnowledgeJsonl,
  readReferenceKnowledgeRecord,
  KnowledgeConflictError,
  KnowledgeCorruptError,
  checkKnowledgeOptions,
  checkKnowledgeRevision,
  listNamespace,
  InMemoryKnowledgeStore,
} from '../library';
export type {
  KnowledgeMethod,
  KnowledgeStore,
  KnowledgeStoreOptions,
  KnowledgeSaveOptions,
  LoadedKnowledge,
  SavedKnowledge,
  KnowledgeListing,
  // The contract KnowledgeStore shares with SessionStore
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
} from '../library';
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
  ExtractionSource,
  FactsExtractedPayload,
  RememberedPayload,
  ForgottenPayload,
  KnowledgeAction,
  FactKind,
  MergeRule,
  KnowledgeEffect,
  FactAddedEffect,
  FactMergedEffect,
  FactRetiredEffect,
  FactsDroppedEffect,
  CursorMovedEffect,
} from '../library';
export {
  knowledgeBlocks,
  scoreFacts,
  BM25_K1,
  BM25_B,
  sanitizeKnowledgeText,
  KNOWN_RELATIONSHIPS_HEADER,
  KNOWN_ENTITIES_HEADER,
  IMPORTANT_KNOWLEDGE_HEADER,
  GENERAL_KNOWLEDGE_HEADER,
  IMPORTANT_KNOWLEDGE_MIN,
  TRUNCATED_SUFFIX,
  BLOCK_SEPARATOR,
  RESERVED_HEADERS,
} from '../library';
export type {
  FactScorer,
  FactDocument,
  ScoreFactsOptions,
  KnowledgeBlockModule,
  GraphBlockOptions,
  EntitiesBlockOptions,
  KnowledgeBlockOptions,
  KnowledgeBlocksOptions,
  KnowledgeBlock,
  KnowledgeBlocksResult,
} from '../library';
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
  readEntityAnswer,
  readTripleAnswer,
  MAX_ANSWER_CHARS,
  MAX_EXTRACTED_ITEMS,
  MAX_EXTRACTED_NAME_CHARS,
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
  extractEntitiesLocally,
  extractTriplesLocally,
  LOCAL_USER_ENTITY,
  KnowledgeExtractionError,
} from '../library';
export type { KnowledgeToolSpec } from '../library';
export {
  knowledgeActions,
  knowledgeTransition,
  factsExtracted,
  remembered,
  expiresAt,
  forgotten,
  findEntry,
  clearKnowledge,
  NEAR_DUPLICATE_SIMILARITY,
  KEEP_HALF_LIFE_MS,
  ENTITY_IMPORTANCE,
  createEntityMemory,
  createKnowledgeGraph,
  createKnowledgeMemory,
  FORGET_TOOL,
} from '../library';
export type {
  KnowledgeTransition,
  EntityMemory,
  EntityMemoryOptions,
  KnowledgeGraph,
  KnowledgeGraphOptions,
  KnowledgeMemory,
  KnowledgeMemoryOptions,
  KnowledgeModule,
  KnowledgeListener,
  ExtractionPrompt,
} from '../library';
