import type { Message } from './message';
import type { MemoryState } from './state';

/**
 * How many messages each rule of `enforceLimits` removed, in the order the rules run.
 *
 * @example
 * ```ts
 * const breakdown: TrimBreakdown = { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 2 };
 * ```
 */
export interface TrimBreakdown {
  /** Removed because the window held more than `maxMessages`. */
  readonly messageLimit: number;
  /** Removed because the window held more than `maxTokens`. */
  readonly tokenLimit: number;
  /** Removed because they were tool results or tool-call messages at the start of the window. */
  readonly toolPairBoundary: number;
}

/**
 * Messages left the window. Every message that leaves a state appears, in order, in exactly one
 * of these; nothing is dropped silently.
 *
 * - `reason: 'enforce_limits'`: the sliding window (count, then tokens, then the tool-pair
 *   boundary), as the reference's `on_memory_trim` reports it; `breakdown` says which rule
 *   removed how many.
 * - `reason: 'clear'`: `clearMemory` emptied the window.
 *
 * @example
 * ```ts
 * const { effects } = addMessage(full, userMessage('next'));
 * // [{ type: 'memory/trimmed', reason: 'enforce_limits', removed: [...], remaining: 20, ... }]
 * ```
 */
export type TrimmedEffect =
  | {
      readonly type: 'memory/trimmed';
      readonly reason: 'enforce_limits';
      /** The removed messages, in removal order: count rule, token rule, then boundary. */
      readonly removed: readonly Message[];
      /** How many messages remain in the window. */
      readonly remaining: number;
      /** Tokens the removed messages carried. */
      readonly removedTokens: number;
      /** Tokens left in the window. */
      readonly remainingTokens: number;
      readonly breakdown: TrimBreakdown;
    }
  | {
      readonly type: 'memory/trimmed';
      readonly reason: 'clear';
      readonly removed: readonly Message[];
      readonly remaining: 0;
      readonly removedTokens: number;
      readonly remainingTokens: 0;
    };

/**
 * The summary text changed (`applySummary`, `setSummary`, or `clearMemory`).
 *
 * @example
 * ```ts
 * const { effects } = applySummary(state, 'User likes cats.');
 * // [{ type: 'memory/summaryChanged', summary: 'User likes cats.', previous: null }]
 * ```
 */
export interface SummaryChangedEffect {
  readonly type: 'memory/summaryChanged';
  readonly summary: string | null;
  readonly previous: string | null;
}

/**
 * Everything a reducer can report: plain tagged data, never functions or promises. A runtime
 * interprets them (notify observers, summarize what was trimmed, persist).
 *
 * @example
 * ```ts
 * const describe = (e: MemoryEffect) => (e.type === 'memory/trimmed' ? e.removed.length : e.summary);
 * ```
 */
export type MemoryEffect = TrimmedEffect | SummaryChangedEffect;

/**
 * What every reducer returns: the next state and what happened on the way. When nothing
 * changed, `state` is the very same object and `effects` is empty.
 *
 * @example
 * ```ts
 * const { state, effects }: Transition = addMessage(createMemory(), userMessage('hi'));
 * ```
 */
export interface Transition {
  readonly state: MemoryState;
  readonly effects: readonly MemoryEffect[];
}
