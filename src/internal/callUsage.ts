import type { ConversationUsage } from '../model/conversationUsage';
import type { Message } from '../model/message';

/**
 * Field `key` of a usage as a count (an integer from 0 to 2^53 − 1, `-0` read as 0), `fallback`
 * when it is absent, or -1 when it is not a count: `readUsage`'s rules, without its messages.
 */
const countOf = (usage: Readonly<Record<string, unknown>>, key: string, fallback?: number) => {
  let value = Object.hasOwn(usage, key) ? usage[key] : undefined;
  if (value === undefined) value = fallback;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value + 0 : -1;
};

/**
 * `total` plus `part` (a new frozen record), or `part` when there is no total yet.
 *
 * @internal
 */
export const addUsage = (
  total: ConversationUsage | undefined,
  part: ConversationUsage,
): ConversationUsage =>
  total === undefined
    ? part
    : Object.freeze({
        calls: total.calls + part.calls,
        inputTokens: total.inputTokens + part.inputTokens,
        cachedInputTokens: total.cachedInputTokens + part.cachedInputTokens,
        cacheWriteTokens: total.cacheWriteTokens + part.cacheWriteTokens,
        outputTokens: total.outputTokens + part.outputTokens,
      });

/**
 * `total` plus the call `message` records: an assistant message's `metadata.usage` when it is a
 * valid usage by `readUsage`'s rules (counts, `inputTokens` and `outputTokens` present, the cache
 * reads and writes at most `inputTokens`). Anything else, a user's own `metadata.usage`
 * included, adds nothing and is never thrown on: `total` comes back. One property check for a
 * message without metadata (what every add of a plain chat message costs when it leaves).
 *
 * @internal
 */
export const addCallUsage = (
  total: ConversationUsage | undefined,
  message: Message,
): ConversationUsage | undefined => {
  const usage: unknown = message.metadata?.usage;
  if (typeof usage !== 'object' || usage === null || message.role !== 'assistant') return total;
  const record = usage as Readonly<Record<string, unknown>>;
  const inputTokens = countOf(record, 'inputTokens');
  const outputTokens = countOf(record, 'outputTokens');
  const cachedInputTokens = countOf(record, 'cachedInputTokens', 0);
  const cacheWriteTokens = countOf(record, 'cacheWriteTokens', 0);
  if (
    inputTokens < 0 ||
    outputTokens < 0 ||
    cachedInputTokens < 0 ||
    cacheWriteTokens < 0 ||
    cachedInputTokens + cacheWriteTokens > inputTokens
  ) {
    return total;
  }
  return addUsage(
    total,
    Object.freeze({ calls: 1, inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens }),
  );
};

/**
 * The usage the calls of `messages` recorded ({@link addCallUsage}), or `undefined` when none did.
 *
 * @internal
 */
export const usageOfMessages = (
  messages: readonly Message[],
  total?: ConversationUsage,
): ConversationUsage | undefined => {
  for (const message of messages) total = addCallUsage(total, message);
  return total;
};
