import type { FactScorer } from './scoreFacts';

/**
 * The module a block comes from: the knowledge graph, the entity memory, or long-term knowledge.
 *
 * @example
 * ```ts
 * const module: KnowledgeBlockModule = 'graph';
 * ```
 */
export type KnowledgeBlockModule = 'graph' | 'entities' | 'knowledge';

/**
 * The knowledge graph's block: `budget` in tokens (its header and separators included), and
 * `maxContextTriples` (the reference's limit: 15 by default without a budget; with a budget, no
 * limit unless given).
 *
 * @example
 * ```ts
 * const graph: GraphBlockOptions = { budget: 200, maxContextTriples: 20 };
 * ```
 */
export interface GraphBlockOptions {
  readonly budget?: number;
  readonly maxContextTriples?: number;
}

/**
 * The entity memory's block: `budget` in tokens (without one, every entity in force is shown, as
 * in the reference).
 *
 * @example
 * ```ts
 * const entities: EntitiesBlockOptions = { budget: 150 };
 * ```
 */
export interface EntitiesBlockOptions {
  readonly budget?: number;
}

/**
 * Long-term knowledge's block: `budget` in tokens, and `maxContextChars` (the reference's limit,
 * 5000 by default without a budget, where the text is cut as the reference cuts it, suffix
 * included; with a budget, a limit on whole facts only when given). At least 16, the suffix's
 * length.
 *
 * @example
 * ```ts
 * const knowledge: KnowledgeBlockOptions = { budget: 300 };
 * ```
 */
export interface KnowledgeBlockOptions {
  readonly budget?: number;
  readonly maxContextChars?: number;
}

/**
 * Options of `knowledgeBlocks`. A module left out gives no block.
 *
 * - `query`: the current user message, which scopes the blocks (see `knowledgeBlocks`);
 * - `now`: the time in milliseconds since the epoch, for entries' TTL;
 * - `countTokens`: counts a text's tokens (the memory's tokenizer); by default the reference's
 *   heuristic, a quarter of the code points, rounded down;
 * - `sanitize`: `false` injects fact text as it is (by default `sanitizeKnowledgeText` runs on
 *   every field);
 * - `score`: replaces BM25 (an application's embedder).
 *
 * @example
 * ```ts
 * const options: KnowledgeBlocksOptions = {
 *   query: 'where does Alice work?', now: Date.now(), graph: {}, entities: { budget: 100 }, knowledge: {},
 * };
 * ```
 */
export interface KnowledgeBlocksOptions {
  readonly query?: string;
  readonly now: number;
  readonly countTokens?: (text: string) => number;
  readonly graph?: GraphBlockOptions;
  readonly entities?: EntitiesBlockOptions;
  readonly knowledge?: KnowledgeBlockOptions;
  readonly sanitize?: boolean;
  readonly score?: FactScorer;
}

/**
 * One block as the model receives it: its `module`, its first `header`, its `text`, the ids of
 * the facts it shows (an entity's attributes after the entity) in its order, and `tokens`: what it
 * adds to `KnowledgeBlocksResult.text` counted with `countTokens` (the blank line before it
 * included, for every block but the first).
 *
 * @example
 * ```ts
 * const block: KnowledgeBlock = {
 *   module: 'entities', header: '[Known Entities]', text: '[Known Entities]\n- Alice [person]',
 *   factIds: ['e1'], tokens: 8,
 * };
 * ```
 */
export interface KnowledgeBlock {
  readonly module: KnowledgeBlockModule;
  readonly header: string;
  readonly text: string;
  readonly factIds: readonly string[];
  readonly tokens: number;
}

/**
 * What `knowledgeBlocks` returns: the blocks that have facts to show, in the order knowledge
 * graph, entities, knowledge, and `text`, the blocks joined by a blank line (`''` when none): what
 * the agent injects as one system message before the summary.
 *
 * @example
 * ```ts
 * const none: KnowledgeBlocksResult = { text: '', blocks: [] };
 * ```
 */
export interface KnowledgeBlocksResult {
  readonly text: string;
  readonly blocks: readonly KnowledgeBlock[];
}
