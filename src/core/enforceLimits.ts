import { appendAndTrim } from '../internal/window';
import type { Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Applies the limits to the window as it is: the count rule, the token rule, then the tool-pair
 * boundary. Idempotent; a window already within its limits comes back as the same object with no
 * effects. Every add runs this; call it yourself after loading a state that is over its limits.
 *
 * @param state - the current memory
 * @returns the trimmed state and one `memory/trimmed` effect when anything left
 * @example
 * ```ts
 * const loaded = ConversationMemory.fromDict(overLimitJson).state; // 3 messages, maxMessages 2
 * enforceLimits(loaded).state.messages.length; // 2
 * ```
 */
export const enforceLimits = (state: MemoryState): Transition => {
  state = readState(state, 'enforceLimits');
  return appendAndTrim(state, [], [], { limits: true, scan: 'full' });
};
