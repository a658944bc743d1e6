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
