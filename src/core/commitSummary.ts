import { summaryText, summaryThrough } from '../internal/summaryArguments';
import { readState } from '../internal/readState';
import { NO_EFFECTS } from '../internal/window';
import type { MemoryEffect, Transition } from '../model/effects';
import { MAX_SUMMARY_COVERAGE, type MemoryState } from '../model/state';
import type { SummaryCoverage } from '../model/summaryCoverage';
import { joinSummary } from './applySummary';

const API = 'commitSummary';

/**
 * Phase two of summarize-on-trim: commits a summary of the held messages up to position
 * `through` (those sent to the summarizer). The text joins the stored summary as `applySummary`
 * does (one space, newest 4,000 characters kept); the covered messages leave the held list; a
 * coverage record (`{ from, to, count }`) is added to `summaryCoverage`, keeping the newest
 * {@link MAX_SUMMARY_COVERAGE}.
 *
 * A text that is empty or only whitespace commits nothing (the held messages stay for the next
 * attempt), and so does a `through` that covers no held message (another runtime committed them
 * first): the same state comes back with no effects.
 *
 * @param state - the current memory
 * @param text - the summary the summarizer returned
 * @param through - the position of the newest held message the summary covers
 * @returns the next state and a `memory/summaryChanged` effect carrying `coverage`
 * @throws MemoryArgumentError when `text` is not a string or `through` not an integer
 * @example
 * ```ts
 * const { messages, positions } = getPendingSummary(state);
 * const text = await summarize(messages);
 * state = commitSummary(state, text, positions[positions.length - 1]).state;
 * ```
 */
export const commitSummary = (state: MemoryState, text: string, through: number): Transition => {
  state = readState(state, API);
  summaryText(API, text);
  summaryThrough(API, through);
  const positions = state.pendingPositions;
  let covered = 0;
  while (covered < positions.length && (positions[covered] as number) <= through) covered++;
  if (covered === 0 || text.trim() === '') return { state, effects: NO_EFFECTS };

  const coverage: SummaryCoverage = Object.freeze({
    from: positions[0] as number,
    to: positions[covered - 1] as number,
    count: covered,
  });
  const records = state.summaryCoverage.concat([coverage]);
  const summary = joinSummary(state.summary, text);
  const effect: MemoryEffect = Object.freeze({
    type: 'memory/summaryChanged',
    summary,
    previous: state.summary,
    coverage,
  });
  const next: MemoryState = Object.freeze({
    ...state,
    summary,
    pendingMessages: Object.freeze(state.pendingMessages.slice(covered)),
    pendingPositions: Object.freeze(positions.slice(covered)),
    summaryCoverage: Object.freeze(records.slice(-MAX_SUMMARY_COVERAGE)),
  });
  return { state: next, effects: Object.freeze([effect]) };
};
