import type { MemoryConfig } from '../model/config';
import type { MemoryEffect, Transition, TrimBreakdown } from '../model/effects';
import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { freezeWindow } from './freeze';

/** Item `i` of the virtual sequence `held ++ incoming`, without building it. */
const at = <T>(held: readonly T[], incoming: readonly T[], i: number): T =>
  (i < held.length ? held[i] : incoming[i - held.length]) as T;

const sum = (values: readonly number[]): number => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

/** The one empty effect list every no-op shares. */
export const NO_EFFECTS: readonly MemoryEffect[] = /* @__PURE__ */ Object.freeze([]);

/**
 * A tool result, or an assistant message that requests tool calls: a message the reference never
 * lets start a window of two or more.
 *
 * @internal
 */
export const startsToolExchange = (message: Message): boolean =>
  message.role === 'tool' ||
  (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0);

/**
 * Builds a state record; the record is always frozen (O(1)), its arrays in development only.
 *
 * @internal
 */
export const makeState = (
  config: MemoryConfig,
  messages: Message[],
  tokenCounts: number[],
  totalTokens: number,
  summary: string | null,
): MemoryState =>
  Object.freeze({
    config,
    messages: freezeWindow(messages),
    tokenCounts: freezeWindow(tokenCounts),
    totalTokens,
    summary,
  });

/**
 * The sliding-window algorithm, on the virtual sequence `state.messages ++ incoming`, without
 * building that sequence: it only moves a start index, then copies the kept part once.
 *
 * 1. count rule: drop the oldest until at most `maxMessages` remain;
 * 2. token rule (when `maxTokens` is set): drop the oldest while the total exceeds it and more
 *    than one message remains (a total equal to the limit is kept);
 * 3. boundary rule: drop leading tool results and assistant tool-call messages while more than
 *    one message remains.
 *
 * With `limits: false` only the boundary rule runs (`fixToolPairBoundary`). The token total is
 * updated by subtracting the stored counts of what leaves: nothing is re-counted. Cost: one pass
 * over the kept pointers plus the removed ones.
 *
 * @internal
 */
export const appendAndTrim = (
  state: MemoryState,
  incoming: readonly Message[],
  incomingCounts: readonly number[],
  limits: boolean,
): Transition => {
  const { config, messages, tokenCounts } = state;
  const held = messages.length;
  const size = held + incoming.length;

  const before = state.totalTokens + sum(incomingCounts);
  let total = before;
  let start = 0;
  let messageLimit = 0;
  let tokenLimit = 0;
  let toolPairBoundary = 0;

  if (limits && size > config.maxMessages) {
    messageLimit = size - config.maxMessages;
    for (; start < messageLimit; start++) total -= at(tokenCounts, incomingCounts, start);
  }
  if (limits && config.maxTokens !== null) {
    while (size - start > 1 && total > config.maxTokens) {
      total -= at(tokenCounts, incomingCounts, start++);
      tokenLimit++;
    }
  }
  while (size - start > 1 && startsToolExchange(at(messages, incoming, start))) {
    total -= at(tokenCounts, incomingCounts, start++);
    toolPairBoundary++;
  }

  if (start === 0 && incoming.length === 0) return { state, effects: NO_EFFECTS };

  const keptMessages =
    start <= held ? messages.slice(start).concat(incoming) : incoming.slice(start - held);
  const keptCounts =
    start <= held
      ? tokenCounts.slice(start).concat(incomingCounts)
      : incomingCounts.slice(start - held);
  const next = makeState(config, keptMessages, keptCounts, total, state.summary);
  if (start === 0) return { state: next, effects: NO_EFFECTS };

  const removed =
    start <= held ? messages.slice(0, start) : messages.concat(incoming.slice(0, start - held));
  const breakdown: TrimBreakdown = Object.freeze({ messageLimit, tokenLimit, toolPairBoundary });
  const effect: MemoryEffect = Object.freeze({
    type: 'memory/trimmed',
    reason: 'enforce_limits',
    removed: freezeWindow(removed),
    remaining: keptMessages.length,
    removedTokens: before - total,
    remainingTokens: total,
    breakdown,
  });
  return { state: next, effects: Object.freeze([effect]) };
};
