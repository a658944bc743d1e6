import { isConversationMemoryError } from '../errors/errorBrand';
import { errorText } from '../util/errorText';
import type { ProblemList } from './budget';

/**
 * What a `readItem` of {@link readItems} throws for a bad item: the problem's whole line.
 *
 * @example
 * ```ts
 * throw new ItemProblem('positionRuns[0].index must be 0, received 1');
 * ```
 * @internal
 */
export class ItemProblem {
  constructor(readonly line: string) {}
}

/**
 * Reads the items of an untrusted list (already known to be an array), each once, through
 * `readItem`, which returns the item's decoded value or throws what is wrong with it. Bounded
 * whatever the list:
 *
 * - a hole (a sparse list, which `structuredClone` and `postMessage` keep, such as one of length
 *   2^32 − 1 and no items) refuses the list at once: one problem, and no further index is read;
 * - it stops once `found` is full (a million bad items cost 1,000 failures, not a million).
 *
 * A failure is added to `found`: an {@link ItemProblem}'s line, or our error's detail (our errors
 * name their own path, such as `messages[3].role …`) after `prefix`; anything else thrown (a
 * getter, a Proxy trap) as `<path>[i] could not be read: …`.
 *
 * @param list - the list
 * @param path - its path in problems (`messages`)
 * @param found - the decode call's problems
 * @param readItem - decodes item `index`, or throws
 * @param prefix - put before a thrown error's detail (`pendingMessages: `)
 * @returns the decoded items, in order (complete only when `found` got no new problem), and
 *   whether every index was visited (`false` when a hole or the cap cut the walk short)
 * @example
 * ```ts
 * const found = new ProblemList();
 * readItems([1, 'x'], 'counts', found, (value) => Number(value));
 * ```
 * @internal
 */
export const readItems = <T>(
  list: readonly unknown[],
  path: string,
  found: ProblemList,
  readItem: (value: unknown, index: number) => T,
  prefix = '',
): { items: T[]; whole: boolean } => {
  const length = list.length;
  const out: T[] = [];
  let i = 0;
  for (; i < length && !found.full; i++) {
    let value: unknown;
    try {
      if (!(i in list)) {
        found.add(`${path}: a sparse list (no item at index ${i}); a stored list has every item`);
        return { items: out, whole: false };
      }
      value = list[i];
    } catch (error) {
      found.add(`${path}[${i}] could not be read: ${errorText(error)}`);
      continue;
    }
    try {
      out.push(readItem(value, i));
    } catch (error) {
      if (error instanceof ItemProblem) found.add(error.line);
      else if (isConversationMemoryError(error)) found.add(prefix + error.detail);
      else found.add(`${path}[${i}] could not be read: ${errorText(error)}`);
    }
  }
  return { items: out, whole: i === length };
};
