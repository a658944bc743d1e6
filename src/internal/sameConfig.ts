import type { MemoryConfig } from '../model/config';

/**
 * Whether two configs are the same (every field).
 *
 * @internal
 */
export const sameConfig = (a: MemoryConfig, b: MemoryConfig): boolean =>
  a.maxMessages === b.maxMessages &&
  a.maxTokens === b.maxTokens &&
  a.tokenizer === b.tokenizer &&
  a.toolPairs === b.toolPairs &&
  a.startOn === b.startOn &&
  a.pinSystem === b.pinSystem &&
  a.prune === b.prune &&
  a.pruneThreshold === b.pruneThreshold &&
  a.embedder === b.embedder;
