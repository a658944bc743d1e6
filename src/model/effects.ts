import type { KnowledgeEffect } from './knowledgeEffects';
import type { MemoryConfig } from './config';
import type { Message } from './message';
import type { MemoryState } from './state';
import type { SummaryCoverage } from './summaryCoverage';
import type { ConversationUsage } from './conversationUsage';

/**
 * The rule that removed a message from the window:
 *
 * - `'messageLimit'`: the window held more than `maxMessages`;
 * - `'tokenLimit'`: the window held more than `maxTokens`;
 * - `'toolPairBoundary'`: it would have broken a tool call/result pairing. Under the reference
 *   policy, a tool result or tool-call message at the start of the window; under `'strict'`, a
 *   tool result whose call is not in the window, or a group whose calls were not all answered;
 * - `'startOn'`: `startOn: 'user'` dropped it from the front;
 * - `'redundant'`: under `prune: 'redundant'`, a newer exact or near twin in the window made it
 *   redundant (the effect's `duplicateOf` gives that twin's position).
 *
 * @example
 * ```ts
 * const rule: TrimRule = 'tokenLimit';
 * ```
 */
export type TrimRule = 'messageLimit' | 'tokenLimit' | 'toolPairBoundary' | 'startOn' | 'redundant';

/**
 * How many messages each rule of `enforceLimits` removed.
 *
 * @example
 * ```ts
 * const breakdown: TrimBreakdown = { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 2, startOn: 0 };
 * ```
 */
export interface TrimBreakdown {
  /** Removed because the window held more than `maxMessages`. */
  readonly messageLimit: number;
  /** Removed because the window held more than `maxTokens`. */
  readonly tokenLimit: number;
  /** Removed to keep tool calls and their results paired (see {@link TrimRule}). */
  readonly toolPairBoundary: number;
  /** Removed by `startOn: 'user'`. */
  readonly startOn: number;
  /** Removed by `prune: 'redundant'` (present only when some were). */
  readonly redundant?: number;
}

/**
 * Messages left the window. Every message that leaves a state appears, in order, in exactly one
 * of these; nothing is dropped silently.
 *
 * - `reason: 'enforce_limits'`: the sliding window (count, then tokens, then the tool-pair
 *   rules, then `startOn`), as the reference's `on_memory_trim` reports it; `rules` says which
 *   rule removed each message and `breakdown` how many each removed.
 * - `reason: 'clear'`: `clearMemory` emptied the window.
 *
 * `usage`, present only when some removed assistant message recorded its call's usage
 * (`metadata.usage`), is the usage that left with them, summed as `usageOf` sums it: the sum of
 * `usage` over every `memory/trimmed` effect, plus the usage of the calls still in the window, is
 * the usage of every call the memory has seen (clears included).
 *
 * @example
 * ```ts
 * const { effects } = addMessage(full, userMessage('next'));
 * // [{ type: 'memory/trimmed', reason: 'enforce_limits', removed: [...], positions: [0], ... }]
 * ```
 */
export type TrimmedEffect =
  | {
      readonly type: 'memory/trimmed';
      readonly reason: 'enforce_limits';
      /** The removed messages, in window order. */
      readonly removed: readonly Message[];
      /** Their positions, parallel to `removed`. */
      readonly positions: readonly number[];
      /** The rule that removed each, parallel to `removed`. */
      readonly rules: readonly TrimRule[];
      /**
       * Present when some left by the rule `'redundant'`: parallel to `removed`, the position of
       * the newer message each duplicates, or `null` for the other rules. That twin stays in the
       * window unless the same trim removes it too: as redundant of a newer twin of its own, or by
       * the oldest-first fallback (which would have removed the older copy first anyway).
       */
      readonly duplicateOf?: readonly (number | null)[];
      /** How many messages remain in the window. */
      readonly remaining: number;
      /** Tokens the removed messages carried. */
      readonly removedTokens: number;
      /** Tokens left in the window. */
      readonly remainingTokens: number;
      readonly breakdown: TrimBreakdown;
      /** The usage of the removed messages' calls; only when some recorded one. */
      readonly usage?: ConversationUsage;
    }
  | {
      readonly type: 'memory/trimmed';
      readonly reason: 'clear';
      readonly removed: readonly Message[];
      readonly positions: readonly number[];
      readonly remaining: 0;
      readonly removedTokens: number;
      readonly remainingTokens: 0;
      /** The usage of the removed messages' calls; only when some recorded one. */
      readonly usage?: ConversationUsage;
    };

/**
 * The summary text changed (`applySummary`, `setSummary`, `commitSummary` or `clearMemory`).
 * A `commitSummary` also says which held messages the new chunk covers.
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
  /** Present on a `commitSummary`: what the committed chunk covers. */
  readonly coverage?: SummaryCoverage;
}

/**
 * Held messages (trimmed, waiting for a summary) were dropped without being summarized:
 * `reason: 'overflow'` when holding more would exceed `MAX_PENDING_MESSAGES` (the oldest go),
 * `'clear'` when `clearMemory` emptied the memory.
 *
 * @example
 * ```ts
 * const effect: PendingDiscardedEffect = { type: 'memory/pendingDiscarded', reason: 'clear', messages: [], positions: [] };
 * ```
 */
export interface PendingDiscardedEffect {
  readonly type: 'memory/pendingDiscarded';
  readonly reason: 'overflow' | 'clear';
  readonly messages: readonly Message[];
  readonly positions: readonly number[];
}

/**
 * Trimmed messages were put aside for summarizing (`holdForSummary`).
 *
 * @example
 * ```ts
 * const effect: HeldForSummaryEffect = { type: 'memory/heldForSummary', positions: [0, 1], pending: 2 };
 * ```
 */
export interface HeldForSummaryEffect {
  readonly type: 'memory/heldForSummary';
  /** The positions newly held. */
  readonly positions: readonly number[];
  /** How many messages are now held in all. */
  readonly pending: number;
}

/**
 * The memory's config changed (`reconfigure`): `from` is the config before, `to` the config now.
 * It comes first; a `memory/trimmed` effect follows when the new limits or policy removed
 * messages. A new tokenizer recounts every message of the window, so `totalTokens` before and
 * after are then counted in different units.
 *
 * @example
 * ```ts
 * const { effects } = reconfigure(createMemory({ maxMessages: 20 }), { maxMessages: 5 });
 * // [{ type: 'memory/reconfigured', from: { maxMessages: 20, … }, to: { maxMessages: 5, … } }]
 * ```
 */
export interface ReconfiguredEffect {
  readonly type: 'memory/reconfigured';
  readonly from: MemoryConfig;
  readonly to: MemoryConfig;
}

/**
 * Everything a reducer can report: plain tagged data, never functions or promises. A runtime
 * interprets them (notify observers, summarize what was trimmed, persist).
 *
 * @example
 * ```ts
 * const describe = (e: MemoryEffect) => (e.type === 'memory/trimmed' ? e.removed.length : e.type);
 * ```
 */
export type MemoryEffect =
  | TrimmedEffect
  | SummaryChangedEffect
  | PendingDiscardedEffect
  | HeldForSummaryEffect
  | ReconfiguredEffect
  | KnowledgeEffect;

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
