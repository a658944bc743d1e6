import { describeValue } from '../util/describeValue';
import { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE, type MemoryState } from '../model/state';
import type { MessageDict } from '../serialization/types';
import type { ProblemList } from './budget';
import { readItems } from './readItems';

/**
 * The lists of a stored state besides its window (held messages, counts, coverage), checked for
 * `decodeState` with bounded work: a list that cannot be right is refused from its length alone.
 */

/**
 * The held messages of a stored state with their positions, as `fromDict` reads them: two lists
 * of one length, at most {@link MAX_PENDING_MESSAGES} (refused at once when longer, before any
 * item is read), each message read by `readMessage`.
 *
 * @example
 * ```ts
 * readPending([messageToDict(userMessage('a'))], [0], new ProblemList(), (m) => m as MessageDict);
 * ```
 * @internal
 */
export const readPending = (
  messages: unknown,
  positions: unknown,
  found: ProblemList,
  readMessage: (value: unknown, index: number) => MessageDict,
): { position: unknown; message: MessageDict }[] => {
  if (
    !Array.isArray(messages) ||
    !Array.isArray(positions) ||
    (messages as unknown[]).length !== (positions as unknown[]).length
  ) {
    found.add('pendingMessages, pendingPositions: expected two lists of the same length');
    return [];
  }
  const length = (messages as unknown[]).length;
  if (length > MAX_PENDING_MESSAGES) {
    found.add(`pendingMessages: at most ${MAX_PENDING_MESSAGES} held messages, received ${length}`);
    return [];
  }
  const read = readItems(
    messages as readonly unknown[],
    'pendingMessages',
    found,
    (message, i) => ({
      position: (positions as readonly unknown[])[i],
      message: readMessage(message, i),
    }),
    'pendingMessages: ',
  );
  return read.items;
};

/**
 * The stored counts: a list as long as the window (an empty one's too), checked before any is
 * read.
 *
 * @example
 * ```ts
 * checkTokenCounts(null, 0, found); // found: 'tokenCounts: expected a list of 0 counts, got null'
 * ```
 * @internal
 */
export const checkTokenCounts = (counts: unknown, length: number, found: ProblemList): void => {
  if (!Array.isArray(counts)) {
    found.add(`tokenCounts: expected a list of ${length} counts, got ${describeValue(counts)}`);
  } else if ((counts as unknown[]).length !== length) {
    found.add(`tokenCounts: expected ${length} counts, received ${(counts as unknown[]).length}`);
  }
};

/**
 * The coverage records: at most {@link MAX_SUMMARY_COVERAGE}, refused before any is read.
 *
 * @example
 * ```ts
 * checkCoverageLength(new Array(101), found); // found: 'summaryCoverage: at most 100 records, …'
 * ```
 * @internal
 */
export const checkCoverageLength = (coverage: unknown, found: ProblemList): void => {
  const length = Array.isArray(coverage) ? (coverage as unknown[]).length : 0;
  if (length > MAX_SUMMARY_COVERAGE) {
    found.add(`summaryCoverage: at most ${MAX_SUMMARY_COVERAGE} records, received ${length}`);
  }
};

/**
 * Checks the stored counts and total against the fresh ones of the decoded state, each count read
 * once, stopping when `found` is full (the list's length was checked by {@link checkTokenCounts}).
 *
 * @example
 * ```ts
 * checkCounts(state, [1, 0], 1, found); // found: 'tokenCounts[0]: expected 2 …'
 * ```
 * @internal
 */
export const checkCounts = (
  state: MemoryState,
  counts: readonly unknown[],
  totalTokens: unknown,
  found: ProblemList,
): void => {
  const expected = state.tokenCounts;
  for (let i = 0; i < expected.length && !found.full; i++) {
    const count = counts[i];
    if (count !== expected[i]) {
      found.add(
        `tokenCounts[${i}]: expected ${expected[i]} (counted with ${state.config.tokenizer}), received ${describeValue(count)}`,
      );
    }
  }
  if (totalTokens !== state.totalTokens) {
    found.add(`totalTokens: expected ${state.totalTokens}, received ${describeValue(totalTokens)}`);
  }
};
