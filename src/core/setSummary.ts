import { summaryTextOrNull } from '../internal/summaryArguments';
import { EMPTY, NO_EFFECTS } from '../internal/window';
import type { MemoryEffect, Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Replaces the summary state and reports the change. Shared by the summary reducers.
 *
 * @internal
 */
export const withSummary = (
  state: MemoryState,
  summary: string | null,
  resetCoverage: boolean,
): Transition => {
  if (summary === state.summary) return { state, effects: NO_EFFECTS };
  const effect: MemoryEffect = Object.freeze({
    type: 'memory/summaryChanged',
    summary,
    previous: state.summary,
  });
  const summaryCoverage = resetCoverage ? EMPTY : state.summaryCoverage;
  return {
    state: Object.freeze({ ...state, summary, summaryCoverage }),
    effects: Object.freeze([effect]),
  };
};

/**
 * Replaces the summary outright (the reference's `summary` setter): no joining and no cap.
 * `null` removes it. The summary's coverage records are dropped (the new text is the caller's,
 * and says nothing about which messages it covers).
 *
 * @param state - the current memory
 * @param text - the new summary, or `null`
 * @returns the next state and a `memory/summaryChanged` effect, or the same state when equal
 * @throws MemoryArgumentError when `text` is neither a string nor `null`
 * @example
 * ```ts
 * const { state } = setSummary(createMemory(), 'Earlier: the user asked about Paris.');
 * getSummary(state); // 'Earlier: the user asked about Paris.'
 * ```
 */
export const setSummary = (state: MemoryState, text: string | null): Transition => {
  state = readState(state, 'setSummary');
  summaryTextOrNull('setSummary', text);
  return withSummary(state, text, true);
};
