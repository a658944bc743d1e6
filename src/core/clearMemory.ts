import { makeState, NO_EFFECTS } from '../internal/window';
import type { MemoryEffect, Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Empties the window and removes the summary, as the reference's `clear()` (since v0.17.5). The
 * limits and tokenizer stay. What was in the window is reported in a `memory/trimmed` effect with
 * `reason: 'clear'`, so even a clear loses nothing silently.
 *
 * @param state - the current memory
 * @returns an empty state with the same config, or the same state when already empty
 * @example
 * ```ts
 * const { state, effects } = clearMemory(withHistory);
 * state.messages; // []
 * effects[0]; // { type: 'memory/trimmed', reason: 'clear', removed: [...], ... }
 * ```
 */
export const clearMemory = (state: MemoryState): Transition => {
  state = readState(state, 'clearMemory');
  if (state.messages.length === 0 && state.summary === null) return { state, effects: NO_EFFECTS };
  const effects: MemoryEffect[] = [];
  if (state.messages.length > 0) {
    effects.push(
      Object.freeze({
        type: 'memory/trimmed',
        reason: 'clear',
        removed: state.messages,
        remaining: 0,
        removedTokens: state.totalTokens,
        remainingTokens: 0,
      }),
    );
  }
  if (state.summary !== null) {
    effects.push(
      Object.freeze({ type: 'memory/summaryChanged', summary: null, previous: state.summary }),
    );
  }
  return { state: makeState(state.config, [], [], 0, null), effects: Object.freeze(effects) };
};
