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
export {
  enableRedundantPruning,
  registerEmbedder,
  isKnownEmbedder,
  embeddingText,
  EmbedderError,
} from '../library';
export type { Embedder, EmbedderName, PrunePolicy } from '../library';
