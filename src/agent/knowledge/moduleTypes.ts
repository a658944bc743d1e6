import type { KnowledgeState } from '../../model/knowledge';
import type { KnowledgeAction } from '../../model/knowledgeActions';
import type { KnowledgeEffect } from '../../model/knowledgeEffects';
import type { KnowledgeStore } from '../../stores/knowledge/types';

/**
 * A replacement for an extraction call's prompts: the system prompt, and the user prompt made from
 * the rendered conversation (`ROLE: content` lines). Default: the reference's, verbatim.
 *
 * @example
 * ```ts
 * const prompt: ExtractionPrompt = { system: 'Extract people only.', user: (conversation) => conversation };
 * ```
 */
export interface ExtractionPrompt {
  readonly system?: string;
  readonly user?: (conversation: string) => string;
}

/**
 * `createEntityMemory`'s options: the reference's `max_entities` and `relevance_window` in
 * camelCase, the extraction model (default: the agent's; the reference always used the agent's),
 * the call's `maxTokens` (500), the prompts, `budget`: the most tokens the `[Known Entities]`
 * block may take, header included, counted with the memory's tokenizer (default: no budget, every
 * entity, as the reference), and `store` (with `id`, default `'default'`, and `namespace`): a
 * knowledge store whose record every session of the user shares. Without a store the entities
 * persist with the conversation.
 *
 * @example
 * ```ts
 * const options: EntityMemoryOptions = { maxEntities: 100, relevanceWindow: 6, budget: 300 };
 * const shared: EntityMemoryOptions = { store: new InMemoryKnowledgeStore(), id: 'user-42' };
 * ```
 */
export interface EntityMemoryOptions {
  readonly maxEntities?: number;
  readonly relevanceWindow?: number;
  readonly model?: string;
  readonly maxTokens?: number;
  readonly budget?: number;
  readonly prompt?: ExtractionPrompt;
  readonly store?: KnowledgeStore;
  readonly id?: string;
  readonly namespace?: string;
}

/**
 * `createKnowledgeGraph`'s options: the reference's `max_triples`, `max_context_triples` and
 * `relevance_window` in camelCase, the extraction model, `maxTokens`, the prompts, `budget` for
 * the `[Known Relationships]` block, `singleValuedRelations` (default `SINGLE_VALUED_RELATIONS`):
 * the relations whose new object retires the old one, and `store` (with `id`, default
 * `'default'`, and `namespace`): a knowledge store whose record every session of the user
 * shares. Without a store the triples persist with the conversation.
 *
 * @example
 * ```ts
 * const options: KnowledgeGraphOptions = { maxTriples: 500, singleValuedRelations: ['works_at', 'lives_in'] };
 * const shared: KnowledgeGraphOptions = { store: new InMemoryKnowledgeStore(), id: 'user-42' };
 * ```
 */
export interface KnowledgeGraphOptions {
  readonly maxTriples?: number;
  readonly maxContextTriples?: number;
  readonly relevanceWindow?: number;
  readonly model?: string;
  readonly maxTokens?: number;
  readonly budget?: number;
  readonly singleValuedRelations?: readonly string[];
  readonly prompt?: ExtractionPrompt;
  readonly store?: KnowledgeStore;
  readonly id?: string;
  readonly namespace?: string;
}

/**
 * A listener of a knowledge module: the effects of each change and the new state.
 *
 * @example
 * ```ts
 * const listener: KnowledgeListener = (effects, state) => console.log(effects.length, state.entities.length);
 * ```
 */
export type KnowledgeListener = (
  effects: readonly KnowledgeEffect[],
  state: KnowledgeState,
) => void;

/**
 * What the three module objects share: the facts they hold as plain data (`state`, retired facts
 * included), the reducers applied to it (`apply`), `restore` and `subscribe`. Given to
 * `createAgent`, the agent keeps the module's state in step with the conversation's
 * `state.knowledge` (with a memory, the memory's facts are the truth at the start of every run);
 * a module with a `store` holds the store record's facts instead, with the conversation's cursors.
 *
 * @example
 * ```ts
 * const entities = createEntityMemory();
 * entities.state.entities; // []
 * ```
 */
export interface KnowledgeModule {
  readonly state: KnowledgeState;
  /** Applies a knowledge action to `state`; returns its effects. */
  apply(action: KnowledgeAction): readonly KnowledgeEffect[];
  /** Replaces `state` (a loaded or decoded one). */
  restore(state: KnowledgeState): void;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: KnowledgeListener): () => void;
}

/**
 * Entity memory (the reference's `EntityMemory`): entities extracted from the conversation after
 * each run, each message read once, injected as `[Known Entities]`. With a `store`, the entities
 * are the store record's, shared by every session (see {@link KnowledgeMemory} for how they are
 * loaded and saved); the conversation keeps which of its messages were read.
 *
 * @example
 * ```ts
 * const memory: EntityMemory = createEntityMemory({ maxEntities: 100 });
 * memory.kind; // 'entityMemory'
 * ```
 */
export interface EntityMemory extends KnowledgeModule {
  readonly kind: 'entityMemory';
  readonly options: Readonly<{
    maxEntities: number;
    relevanceWindow: number;
    model: string | undefined;
    maxTokens: number;
    budget: number | undefined;
    prompt: Required<ExtractionPrompt>;
    store: KnowledgeStore | undefined;
    id: string;
    namespace: string | undefined;
  }>;
}

/**
 * The knowledge graph (the reference's `KnowledgeGraphMemory`): relationship triples extracted
 * after each run, each message read once, kept bi-temporally, injected as `[Known Relationships]`.
 * With a `store`, the triples are the store record's, shared by every session (see
 * {@link KnowledgeMemory}); the conversation keeps which of its messages were read.
 *
 * @example
 * ```ts
 * const graph: KnowledgeGraph = createKnowledgeGraph();
 * graph.options.maxContextTriples; // 15
 * ```
 */
export interface KnowledgeGraph extends KnowledgeModule {
  readonly kind: 'knowledgeGraph';
  readonly options: Readonly<{
    maxTriples: number;
    maxContextTriples: number;
    relevanceWindow: number;
    model: string | undefined;
    maxTokens: number;
    budget: number | undefined;
    singleValuedRelations: readonly string[];
    prompt: Required<ExtractionPrompt>;
    store: KnowledgeStore | undefined;
    id: string;
    namespace: string | undefined;
  }>;
}

/**
 * `createKnowledgeMemory`'s options: the reference's `max_entries` and `max_context_chars` in
 * camelCase, `budget` for the `[Important Knowledge]`/`[General Knowledge]` blocks, and `store`
 * (with `id`, default `'default'`, and `namespace`): long-term knowledge shared across agents and
 * sessions. Without a store the entries persist with the conversation.
 *
 * @example
 * ```ts
 * const options: KnowledgeMemoryOptions = { store: new InMemoryKnowledgeStore(), id: 'user-42', maxEntries: 200 };
 * ```
 */
export interface KnowledgeMemoryOptions {
  readonly maxEntries?: number;
  readonly maxContextChars?: number;
  readonly budget?: number;
  readonly store?: KnowledgeStore;
  readonly id?: string;
  readonly namespace?: string;
}

/**
 * Long-term knowledge memory (the reference's `KnowledgeMemory`): entries the agent stores with
 * its `remember` tool, finds with `recall` and retires with `forget`, injected as
 * `[Important Knowledge]` and `[General Knowledge]`. With a `store`, the entries are loaded from
 * it at the start of every run and saved after each change, with the revision loaded (a writer
 * that saved meanwhile is not overwritten: the change is applied again to its state). Modules
 * given the same store, `id` and `namespace` share one record (one user's entities, triples and
 * entries).
 *
 * @example
 * ```ts
 * const knowledge: KnowledgeMemory = createKnowledgeMemory();
 * knowledge.kind; // 'knowledgeMemory'
 * ```
 */
export interface KnowledgeMemory extends KnowledgeModule {
  readonly kind: 'knowledgeMemory';
  readonly options: Readonly<{
    maxEntries: number;
    maxContextChars: number;
    budget: number | undefined;
    store: KnowledgeStore | undefined;
    id: string;
    namespace: string | undefined;
  }>;
}
