import { appendAndTrim } from '../internal/window';
import type { Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Drops leading tool results and assistant tool-call messages, keeping at least one message: the
 * reference's `_fix_tool_pair_boundary`. Runs as the last step of every add and of `fromDict`.
 * Like the reference it strips from the front only and does not match ids, and the one message it
 * keeps may itself be a tool result.
 *
 * @param state - the current memory
 * @returns the fixed state, with a `memory/trimmed` effect (`breakdown.toolPairBoundary`) when
 *   anything was dropped
 * @example
 * ```ts
 * // window [tool, assistant(toolCalls), user] → [user]
 * fixToolPairBoundary(state).state.messages.length; // 1
 * ```
 */
export const fixToolPairBoundary = (state: MemoryState): Transition => {
  state = readState(state, 'fixToolPairBoundary');
  return appendAndTrim(state, [], [], { limits: false, scan: 'full' }, true, 'fixToolPairBoundary');
};
