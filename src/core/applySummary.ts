import { lastCodePoints } from '../util/codePoints';
import { summaryText } from '../internal/summaryArguments';
import { NO_EFFECTS } from '../internal/window';
import type { Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { withSummary } from './setSummary';
import { readState } from '../internal/readState';

/**
 * The reference's summary cap (`_MAX_SUMMARY_CHARS`): a combined summary keeps its newest 4,000
 * characters (code points).
 *
 * @example
 * ```ts
 * MAX_SUMMARY_CHARS; // 4000
 * ```
 */
export const MAX_SUMMARY_CHARS = 4000;

/**
 * Adds a new summary chunk, as the reference's `_append_summary`: joined to the existing summary
 * with one space (or used alone when there is none), then cut to the newest
 * {@link MAX_SUMMARY_CHARS} characters, from the front. An empty text changes nothing.
 *
 * @param state - the current memory
 * @param text - the new summary chunk
 * @returns the next state and a `memory/summaryChanged` effect, or the same state when nothing
 *   changed
 * @throws MemoryArgumentError when `text` is not a string
 * @example
 * ```ts
 * let { state } = applySummary(createMemory(), 'User is Alice.');
 * state = applySummary(state, 'She likes cats.').state;
 * getSummary(state); // 'User is Alice. She likes cats.'
 * ```
 */
export const applySummary = (state: MemoryState, text: string): Transition => {
  state = readState(state, 'applySummary');
  summaryText('applySummary', text);
  if (text === '') return { state, effects: NO_EFFECTS };
  return withSummary(state, joinSummary(state.summary, text), false);
};

/**
 * The reference's `_append_summary`: `existing + ' ' + text` (or `text` alone), keeping the
 * newest {@link MAX_SUMMARY_CHARS} code points.
 *
 * @internal
 */
export const joinSummary = (existing: string | null, text: string): string =>
  lastCodePoints(
    existing === null || existing === '' ? text : `${existing} ${text}`,
    MAX_SUMMARY_CHARS,
  );
