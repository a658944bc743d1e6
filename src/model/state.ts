import type { MemoryConfig } from './config';
import type { Message } from './message';
import type { SummaryCoverage } from './summaryCoverage';

/**
 * The whole memory: a plain, readonly, JSON-serializable record. Reducers take one and return a
 * new one; nothing ever mutates it, so it can sit in a Redux or Zustand store, be diffed by
 * DevTools, and be kept at every step for time travel.
 *
 * - `tokenCounts[i]` is the token count of `messages[i]`, computed once with `config.tokenizer`
 *   when the message entered; `totalTokens` is their sum, kept incrementally. Trimming never
 *   re-counts.
 * - `positions[i]` is the absolute position of `messages[i]` in its conversation: 0 for the first
 *   message ever added, then 1, 2, …; it never changes while the message is held, and trimming,
 *   summarizing or clearing never reuses one. `nextPosition` is the one the next message gets. A
 *   chat UI keys rendered messages by position.
 * - `pendingMessages` (with `pendingPositions`) are trimmed messages held for summarize-on-trim
 *   (`holdForSummary`) until a summary that covers them is committed (`commitSummary`); they are
 *   not part of the window. At most {@link MAX_PENDING_MESSAGES} are held.
 * - `summaryCoverage` records what each committed summary chunk covers, oldest first (at most
 *   {@link MAX_SUMMARY_COVERAGE} records).
 *
 * @example
 * ```ts
 * const state: MemoryState = addMessage(createMemory(), userMessage('hi')).state;
 * state.messages.length; // 1
 * state.positions; // [0]
 * ```
 */
export interface MemoryState {
  readonly config: MemoryConfig;
  readonly messages: readonly Message[];
  readonly tokenCounts: readonly number[];
  readonly positions: readonly number[];
  readonly nextPosition: number;
  readonly totalTokens: number;
  /** Summarize-on-trim text, or `null` when there is none. */
  readonly summary: string | null;
  readonly pendingMessages: readonly Message[];
  readonly pendingPositions: readonly number[];
  readonly summaryCoverage: readonly SummaryCoverage[];
}

/**
 * The most trimmed messages a state holds for summarizing. When holding more would exceed it, the
 * oldest held ones are discarded and reported in a `memory/pendingDiscarded` effect.
 *
 * @example
 * ```ts
 * MAX_PENDING_MESSAGES; // 1000
 * ```
 */
export const MAX_PENDING_MESSAGES = 1000;

/**
 * The most summary coverage records a state keeps (the newest).
 *
 * @example
 * ```ts
 * MAX_SUMMARY_COVERAGE; // 100
 * ```
 */
export const MAX_SUMMARY_COVERAGE = 100;
