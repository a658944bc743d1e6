import type { Message } from '../../model/message';
import { guardValuesOf, similarityOf, type Sketch } from '../../similarity/sketch';
import { sameValues } from '../../similarity/valueGuard';

/**
 * A message as the redundancy index holds it.
 *
 * @internal
 */
export interface IndexEntry {
  readonly position: number;
  readonly message: Message;
  readonly sketch: Sketch;
  /** Its locality-sensitive bucket keys. */
  readonly keys: readonly number[];
  /**
   * A tool result: its call's `name {arguments}` (`undefined` when the call was not in the
   * window when it entered). A tool-call message: its calls', one per line, sorted.
   */
  readonly callKey: string | undefined;
  /**
   * The position of the unit it belongs to: its own, or for a tool result its call's (-1 when the
   * call was not in the window: such a result is never planned).
   */
  readonly head: number;
}

/**
 * Whether `newer` makes `older` redundant, in this order:
 *
 * 1. the same role;
 * 2. tool results: the same tool name and the same call (name and arguments, key order aside);
 *    tool-call messages: the same calls;
 * 3. a similarity of at least `threshold` (exact Jaccard of word 3-shingles, or cosine);
 * 4. the same values (the value guard: numbers, dates, names, quotes, negations, and the content
 *    words in order, every word but a few stop words): a near twin that changes a value is an
 *    update, and both stay.
 *
 * @internal
 */
export const isTwin = (older: IndexEntry, newer: IndexEntry, threshold: number): boolean => {
  const a = older.message;
  const b = newer.message;
  if (a.role !== b.role) return false;
  if (a.role === 'tool') {
    if (older.callKey === undefined || older.callKey !== newer.callKey) return false;
    if (a.toolName !== b.toolName) return false;
  } else if (older.callKey !== newer.callKey) return false;
  return (
    similarityOf(older.sketch, newer.sketch) >= threshold &&
    sameValues(guardValuesOf(a), guardValuesOf(b))
  );
};
