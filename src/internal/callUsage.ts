import type { ConversationUsage } from '../model/conversationUsage';
import type { Message } from '../model/message';

/**
 * The token fields of a usage, in `ConversationUsage`'s order (after `calls`); the two that start
 * with `cache` are optional in a `CompletionUsage` (absent reads as 0). A list, not four
 * expressions: a chat UI's first load carries this module (it runs where messages leave).
 */
const TOKEN_FIELDS = ['inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens'];

/**
 * `total` plus the call `message` records (a new frozen record, `calls` one more): an assistant
 * message's `metadata.usage` when it is a valid usage by `readUsage`'s rules (own fields, each an
 * integer from 0 to 2^53 − 1 with `-0` read as 0; `inputTokens` and `outputTokens` present; the
 * cache reads and writes together at most `inputTokens`; metadata is JSON, so a field is never
 * `undefined`). Anything else, an application's own `metadata.usage` included, adds nothing and
 * is never thrown on: `total` itself comes back. A message without metadata costs one property
 * check.
 *
 * @internal
 */
export const addCallUsage = (
  total: ConversationUsage | undefined,
  message: Message,
): ConversationUsage | undefined => {
  const usage = message.metadata?.usage;
  if (usage === undefined || usage === null || message.role !== 'assistant') return total;
  const sum: Record<string, number> = { calls: (total?.calls ?? 0) + 1 };
  let cacheParts = 0;
  for (const key of TOKEN_FIELDS) {
    const cache = key.startsWith('cache');
    // Strings, numbers and lists have no own such field: a required one reads as -1, invalid.
    const value = Object.hasOwn(usage as object, key) ? (usage as never)[key] : cache ? 0 : -1;
    if (!Number.isSafeInteger(value) || value < 0) return total;
    if (cache) cacheParts += value;
    sum[key] = value + ((total as never)?.[key] ?? 0);
  }
  return cacheParts > (sum['inputTokens'] as number) - (total?.inputTokens ?? 0)
    ? total
    : Object.freeze(sum as unknown as ConversationUsage);
};

/**
 * `total` plus the usage the calls of `messages` recorded ({@link addCallUsage}); `undefined`
 * when there is no total and none did.
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
