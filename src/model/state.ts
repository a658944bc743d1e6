import type { MemoryConfig } from './config';
import type { Message } from './message';
import type { KnowledgeState } from './knowledge';
import type { SummaryCoverage } from './summaryCoverage';
import type { ConversationUsage } from './conversationUsage';

/**
 * The whole memory: a plain, readonly, JSON-serializable record. Reducers take one and return a
 * new one; nothing ever mutates it, so it can sit in a Redux or Zustand store, be diffed by
 * DevTools, and be kept at every step for time travel.
 *
 * - `tokenCounts[i]` is the token count of `messages[i]`, computed once with `config.tokenizer`
 *   when the message entered; `totalTokens` is their sum, kept incrementally. Trimming never
 *   re-counts.
 * - Each message has an absolute position in its conversation: 0 for the first message ever
 *   added, then 1, 2, …; it never changes while the message is held, and trimming, summarizing or
 *   clearing never reuses one. `nextPosition` is the one the next message gets. Read them with
 *   `getPositions(state)` (parallel to `getHistory(state)`); a chat UI keys rendered messages by
 *   position. They are stored as runs of consecutive positions (`positionRuns`), so an add does
 *   not copy a third array the size of the window.
 * - `pendingMessages` (with `pendingPositions`) are trimmed messages held for summarize-on-trim
 *   (`holdForSummary`) until a summary that covers them is committed (`commitSummary`); they are
 *   not part of the window. At most {@link MAX_PENDING_MESSAGES} are held.
 * - `summaryCoverage` records what each committed summary chunk covers, oldest first (at most
 *   {@link MAX_SUMMARY_COVERAGE} records).
 * - `knowledge`, present once a knowledge action was applied (`knowledge/*`, see
 *   `conversation-memory/knowledge`), holds the facts of the conversation's entity memory,
 *   knowledge graph and knowledge memory; absent otherwise, so a state without knowledge is
 *   exactly what it always was.
 * - `trimmedUsage`, present once an assistant message that recorded its call's usage
 *   (`metadata.usage`, as the agent records it) left the window, holds the usage of every such
 *   message that left (trimmed, pruned, dropped by a tool-pair fix), summed: `usageOf(state)` adds
 *   the window's to it. `clearMemory` starts over (absent again). Absent when nothing left with a
 *   usage, so a state without usage is exactly what it always was.
 *
 * @example
 * ```ts
 * const state: MemoryState = addMessage(createMemory(), userMessage('hi')).state;
 * state.messages.length; // 1
 * getPositions(state); // [0]
 * ```
 */
export interface MemoryState {
  readonly config: MemoryConfig;
  readonly messages: readonly Message[];
  readonly tokenCounts: readonly number[];
  /** The positions of the window, as runs (see {@link PositionRun}); `[]` for an empty window. */
  readonly positionRuns: readonly PositionRun[];
  readonly nextPosition: number;
  readonly totalTokens: number;
  /** Summarize-on-trim text, or `null` when there is none. */
  readonly summary: string | null;
  readonly pendingMessages: readonly Message[];
  readonly pendingPositions: readonly number[];
  readonly summaryCoverage: readonly SummaryCoverage[];
  readonly knowledge?: KnowledgeState;
  /** The summed usage of the calls whose assistant messages left the window (see `usageOf`). */
  readonly trimmedUsage?: ConversationUsage;
}

/**
 * A run of consecutive positions in a window: the message at window index `index` has position
 * `position`, and each following message, up to the next run, the next position. The first run
 * starts at index 0; a default-policy window is always one run.
 *
 * @example
 * ```ts
 * // positions [0, 7, 8, 9] (a pinned system message, then three later messages):
 * const runs: PositionRun[] = [{ index: 0, position: 0 }, { index: 1, position: 7 }];
 * ```
 */
export interface PositionRun {
  readonly index: number;
  readonly position: number;
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
