import { DEFAULT_KNOWLEDGE_LIMITS, SINGLE_VALUED_RELATIONS } from '../../model/knowledge';
import {
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  EXTRACTION_MAX_TOKENS,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
  entityExtractionPrompt,
  tripleExtractionPrompt,
} from '../../knowledge/extraction/prompts';
import { KnowledgeHolder } from './knowledgeModule';
import type {
  EntityMemory,
  EntityMemoryOptions,
  KnowledgeGraph,
  KnowledgeGraphOptions,
  KnowledgeMemory,
  KnowledgeMemoryOptions,
} from './moduleTypes';
import { optionReader } from './readModuleOptions';

/** The reference's default `relevance_window` and `max_context_triples`/`max_context_chars`. */
const RELEVANCE_WINDOW = 10;
const MAX_CONTEXT_TRIPLES = 15;
const MAX_CONTEXT_CHARS = 5000;

class EntityModule extends KnowledgeHolder implements EntityMemory {
  readonly kind = 'entityMemory' as const;
  constructor(readonly options: EntityMemory['options']) {
    super();
  }
}

class GraphModule extends KnowledgeHolder implements KnowledgeGraph {
  readonly kind = 'knowledgeGraph' as const;
  constructor(readonly options: KnowledgeGraph['options']) {
    super();
  }
}

class KnowledgeModuleObject extends KnowledgeHolder implements KnowledgeMemory {
  readonly kind = 'knowledgeMemory' as const;
  constructor(readonly options: KnowledgeMemory['options']) {
    super();
  }
}

/**
 * Creates entity memory (the reference's `EntityMemory`): give it to `createAgent({ entityMemory })`
 * and after each run the agent extracts named entities from the messages it has not read yet (at
 * most the last `relevanceWindow` of them, one provider call), merges them into `state` (an entity
 * is resolved by name, alias or near-duplicate name, never stored twice; a new attribute value
 * retires the old one), and injects `[Known Entities]` before the next model call, within `budget`.
 * With `store` (and `id`, `namespace`), the entities are shared by every session of the user: the
 * store's record is loaded at the start of every run and saved after each extraction with the
 * revision loaded, so a value told in one session retires the old one for all.
 *
 * @param options - `maxEntities` (50), `relevanceWindow` (10), `model`, `maxTokens` (500),
 *   `budget`, `prompt`, `store`, `id` (`'default'`), `namespace`
 * @returns the module
 * @throws MemoryArgumentError naming an unknown or invalid option
 * @example
 * ```ts
 * const entityMemory = createEntityMemory({ maxEntities: 100 });
 * const agent = createAgent({ provider: new LocalProvider(), entityMemory });
 * const shared = createEntityMemory({ store: new InMemoryKnowledgeStore(), id: 'user-42' });
 * ```
 */
export const createEntityMemory = (options?: EntityMemoryOptions): EntityMemory => {
  const read = optionReader('createEntityMemory', options, [
    'maxEntities',
    'relevanceWindow',
    'model',
    'maxTokens',
    'budget',
    'prompt',
    'store',
    'id',
    'namespace',
  ]);
  return new EntityModule(
    Object.freeze({
      maxEntities: read.positive('maxEntities', DEFAULT_KNOWLEDGE_LIMITS.maxEntities),
      relevanceWindow: read.positive('relevanceWindow', RELEVANCE_WINDOW),
      model: read.optionalText('model'),
      maxTokens: read.positive('maxTokens', EXTRACTION_MAX_TOKENS),
      budget: read.optionalPositive('budget'),
      prompt: read.prompt(ENTITY_EXTRACTION_SYSTEM_PROMPT, entityExtractionPrompt),
      ...read.storeLink(),
    }),
  );
};

/**
 * Creates a temporal knowledge graph (the reference's `KnowledgeGraphMemory`): give it to
 * `createAgent({ knowledgeGraph })` and after each run the agent extracts relationship triples
 * from the messages it has not read yet, merges them into `state` (an identical triple is a
 * mention, never a copy; a new object of a single-valued relation retires the old one, with
 * `validTo` and `retiredAt` set), and injects `[Known Relationships]` scoped to the user's latest
 * message, within `budget` (else the `maxContextTriples` best). With `store` (and `id`,
 * `namespace`), the triples are shared by every session of the user: the store's record is loaded
 * at the start of every run and saved after each extraction with the revision loaded, so a move
 * told in one session retires the old city for all.
 *
 * @param options - `maxTriples` (200), `maxContextTriples` (15), `relevanceWindow` (10), `model`,
 *   `maxTokens` (500), `budget`, `singleValuedRelations`, `prompt`, `store`, `id` (`'default'`),
 *   `namespace`
 * @returns the module
 * @throws MemoryArgumentError naming an unknown or invalid option
 * @example
 * ```ts
 * const knowledgeGraph = createKnowledgeGraph({ maxTriples: 500 });
 * const agent = createAgent({ provider: new LocalProvider(), knowledgeGraph });
 * const shared = createKnowledgeGraph({ store: new InMemoryKnowledgeStore(), id: 'user-42' });
 * ```
 */
export const createKnowledgeGraph = (options?: KnowledgeGraphOptions): KnowledgeGraph => {
  const read = optionReader('createKnowledgeGraph', options, [
    'maxTriples',
    'maxContextTriples',
    'relevanceWindow',
    'model',
    'maxTokens',
    'budget',
    'singleValuedRelations',
    'prompt',
    'store',
    'id',
    'namespace',
  ]);
  return new GraphModule(
    Object.freeze({
      maxTriples: read.positive('maxTriples', DEFAULT_KNOWLEDGE_LIMITS.maxRelations),
      maxContextTriples: read.positive('maxContextTriples', MAX_CONTEXT_TRIPLES),
      relevanceWindow: read.positive('relevanceWindow', RELEVANCE_WINDOW),
      model: read.optionalText('model'),
      maxTokens: read.positive('maxTokens', EXTRACTION_MAX_TOKENS),
      budget: read.optionalPositive('budget'),
      singleValuedRelations: read.texts('singleValuedRelations', SINGLE_VALUED_RELATIONS),
      prompt: read.prompt(TRIPLE_EXTRACTION_SYSTEM_PROMPT, tripleExtractionPrompt),
      ...read.storeLink(),
    }),
  );
};

/**
 * Creates long-term knowledge memory (the reference's `KnowledgeMemory`): give it to
 * `createAgent({ knowledgeMemory })` and the agent offers the tools `remember`, `recall` and
 * `forget`, and injects `[Important Knowledge]` (importance ≥ 0.7) and `[General Knowledge]`
 * within `budget` (else cut to `maxContextChars`). With `store` (and `id`, `namespace`), the
 * entries are shared across agents and sessions: loaded at the start of every run, saved after
 * every change with the revision loaded.
 *
 * @param options - `maxEntries` (50), `maxContextChars` (5000), `budget`, `store`, `id`
 *   (`'default'`), `namespace`
 * @returns the module
 * @throws MemoryArgumentError naming an unknown or invalid option
 * @example
 * ```ts
 * const knowledgeMemory = createKnowledgeMemory({ store: new InMemoryKnowledgeStore(), id: 'user-42' });
 * const agent = createAgent({ provider: new LocalProvider(), knowledgeMemory });
 * ```
 */
export const createKnowledgeMemory = (options?: KnowledgeMemoryOptions): KnowledgeMemory => {
  const read = optionReader('createKnowledgeMemory', options, [
    'maxEntries',
    'maxContextChars',
    'budget',
    'store',
    'id',
    'namespace',
  ]);
  return new KnowledgeModuleObject(
    Object.freeze({
      maxEntries: read.positive('maxEntries', DEFAULT_KNOWLEDGE_LIMITS.maxEntries),
      maxContextChars: read.positive('maxContextChars', MAX_CONTEXT_CHARS),
      budget: read.optionalPositive('budget'),
      ...read.storeLink(),
    }),
  );
};
