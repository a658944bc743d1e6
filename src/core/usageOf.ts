import { usageOfMessages } from '../internal/callUsage';
import { readState } from '../internal/readState';
import type { ConversationUsage } from '../model/conversationUsage';
import type { MemoryState } from '../model/state';

const NO_USAGE: ConversationUsage = /* @__PURE__ */ Object.freeze({
  calls: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
});

/**
 * The usage of every model call of the conversation, summed: the calls whose assistant messages
 * are in the window, and those whose messages left it (trimmed, pruned, summarized away: the
 * state keeps their sum as `trimmedUsage`, and each `memory/trimmed` effect carries its share as
 * `usage`). A call counts when its assistant message records a valid usage as
 * `metadata.usage` (a `CompletionUsage`, as the agent records it: counts from 0 to 2^53 − 1,
 * `inputTokens` and `outputTokens` present, the cache reads and writes at most `inputTokens`). A
 * `metadata.usage` that is not one (an application's own data under that name), or one on another
 * role's message, is ignored, never thrown on. `clearMemory` starts a new conversation: the total
 * starts over at zero. O(window).
 *
 * @param state - the memory
 * @returns `{ calls, inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens }` (all 0
 *   when no call recorded a usage); `cachedInputTokens` and `cacheWriteTokens` are parts of
 *   `inputTokens`
 * @throws MemoryArgumentError when `state` is not a memory state
 * @example
 * ```ts
 * let state = createMemory({ maxMessages: 2 });
 * const usage = { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 40 };
 * state = addMessage(state, userMessage('Hi')).state;
 * state = addMessage(state, { ...assistantMessage('Hello!'), metadata: { usage } }).state;
 * state = addMessage(state, userMessage('Bye')).state; // trims 'Hi'
 * state = addMessage(state, userMessage('Really, bye')).state; // trims 'Hello!': its usage stays
 * usageOf(state);
 * // { calls: 1, inputTokens: 1200, cachedInputTokens: 1024, cacheWriteTokens: 0, outputTokens: 40 }
 * ```
 */
export const usageOf = (state: MemoryState): ConversationUsage => {
  state = readState(state, 'usageOf');
  return usageOfMessages(state.messages, state.trimmedUsage) ?? NO_USAGE;
};
