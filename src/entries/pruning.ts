/**
 * `conversation-memory/pruning` (browser-safe): what `prune: 'redundant'` needs besides the
 * config: embedders for other similarity measures, the text an embedder sees, and (in a browser
 * page) the planner itself.
 *
 * @example
 * ```ts
 * import { enableRedundantPruning, registerEmbedder } from 'conversation-memory/pruning';
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/pruning
 */
export { enableRedundantPruning } from '../core/enableRedundantPruning';
export { registerEmbedder, isKnownEmbedder } from '../similarity/embedders';
export { embeddingText } from '../similarity/embeddingText';
export { EmbedderError } from '../errors/memoryErrors';
export type { Embedder } from '../similarity/embedders';
export type { EmbedderName, PrunePolicy } from '../model/config';
