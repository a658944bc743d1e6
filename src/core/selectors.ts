import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue, received } from '../util/describeValue';
import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { positionsOf } from '../internal/positions';
import { readState } from '../internal/readState';

/**
 * The whole window, oldest first. The state's own array is returned (no copy), frozen in every
 * `NODE_ENV` when it is first read (O(window) once per state; adds never pay for it): it never
 * changes, so it is safe to keep, `===` tells whether the history changed, and a mutation such as
 * `getHistory(state).reverse()` throws instead of corrupting the state.
 *
 * @param state - the memory
 * @returns the messages in order
 * @example
 * ```ts
 * getHistory(addMessage(createMemory(), userMessage('hi')).state); // [{ role: 'user', content: 'hi' }]
 * ```
 */
export const getHistory = (state: MemoryState): readonly Message[] => {
  state = readState(state, 'getHistory');
  return frozen(state.messages);
};

/**
 * Freezes an array a selector hands out, in every `NODE_ENV`, the first time it is read (adds
 * never pay for it): `getHistory(state).reverse()` then throws instead of reversing the state.
 */
const frozen = <T>(items: readonly T[]): readonly T[] =>
  Object.isFrozen(items) ? items : Object.freeze(items);

/**
 * The last `n` messages, or all of them when there are fewer (the reference's `get_recent`).
 * When `n` covers the whole window this is the state's own array (as `getHistory`, frozen);
 * otherwise a new frozen array.
 *
 * @param state - the memory
 * @param n - how many, an integer ≥ 1
 * @returns the newest `n` messages, oldest first
 * @throws MemoryArgumentError (a `RangeError`): `n must be at least 1, received 0`
 * @example
 * ```ts
 * getRecent(state, 2); // the last two messages
 * ```
 */
export const getRecent = (state: MemoryState, n: number): readonly Message[] => {
  state = readState(state, 'getRecent');
  if (typeof n !== 'number') {
    throw new MemoryArgumentError('getRecent', `n must be an integer, ${received(n)}`);
  }
  if (Number.isNaN(n) || n < 1) {
    throw new MemoryArgumentError(
      'getRecent',
      `n must be at least 1, received ${describeValue(n)}`,
    );
  }
  if (!Number.isInteger(n) && Number.isFinite(n)) {
    throw new MemoryArgumentError(
      'getRecent',
      `n must be an integer, received ${describeValue(n)}`,
    );
  }
  const messages = state.messages;
  return n >= messages.length
    ? frozen(messages)
    : Object.freeze(messages.slice(messages.length - n));
};

/**
 * The summarize-on-trim text, or `null`.
 *
 * @param state - the memory
 * @returns the summary
 * @example
 * ```ts
 * getSummary(createMemory()); // null
 * ```
 */
export const getSummary = (state: MemoryState): string | null => {
  state = readState(state, 'getSummary');
  return state.summary;
};

/**
 * The window's token count with the state's tokenizer, kept incrementally: O(1), never a recount.
 *
 * @param state - the memory
 * @returns the sum of the stored per-message counts
 * @example
 * ```ts
 * getTotalTokens(addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('abcdefgh')).state); // 2
 * ```
 */
export const getTotalTokens = (state: MemoryState): number => {
  state = readState(state, 'getTotalTokens');
  return state.totalTokens;
};

/** The positions of each state, computed once per state from its runs. */
const positionsCache = /* @__PURE__ */ new WeakMap<MemoryState, readonly number[]>();

/**
 * The absolute position of each message of the window, parallel to `getHistory(state)`: 0 for the
 * first message ever added to the conversation, then 1, 2, …. A position never changes while its
 * message is held and is never reused, so a chat UI can key rendered messages by it.
 *
 * @param state - the memory
 * @returns the positions, rising: a frozen array, the same one for the same state (computed from
 *   `state.positionRuns` on first use, O(window), then cached)
 * @example
 * ```ts
 * let state = createMemory({ maxMessages: 2 });
 * for (const text of ['a', 'b', 'c']) state = addMessage(state, userMessage(text)).state;
 * getPositions(state); // [1, 2]
 * ```
 */
export const getPositions = (state: MemoryState): readonly number[] => {
  state = readState(state, 'getPositions');
  let positions = positionsCache.get(state);
  if (positions === undefined) {
    positions = Object.freeze(positionsOf(state.positionRuns, state.messages.length));
    positionsCache.set(state, positions);
  }
  return positions;
};

/**
 * The trimmed messages held for summarizing (`holdForSummary`) and not yet covered by a committed
 * summary, oldest first, with their positions. They are not part of the window.
 *
 * @param state - the memory
 * @returns `{ messages, positions }`, parallel arrays (empty when nothing waits)
 * @example
 * ```ts
 * const { messages, positions } = getPendingSummary(state);
 * ```
 */
export const getPendingSummary = (
  state: MemoryState,
): { readonly messages: readonly Message[]; readonly positions: readonly number[] } => {
  state = readState(state, 'getPendingSummary');
  return { messages: state.pendingMessages, positions: state.pendingPositions };
};
