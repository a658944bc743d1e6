/**
 * The usage of every model call of a conversation, summed (what `usageOf` returns): `calls` is
 * how many calls reported a usage (assistant messages with a valid `metadata.usage`), and each
 * token field the sum of that field over them, a missing `cachedInputTokens` or
 * `cacheWriteTokens` read as 0. Pass it to `estimateCost` (`conversation-memory/tokens`) for
 * the conversation's cost.
 *
 * @example
 * ```ts
 * const usage: ConversationUsage = {
 *   calls: 2, inputTokens: 9000, cachedInputTokens: 4096, cacheWriteTokens: 0, outputTokens: 120,
 * };
 * ```
 */
export interface ConversationUsage {
  /** How many calls reported a usage. */
  readonly calls: number;
  /** Every input token of those calls, cached or not. */
  readonly inputTokens: number;
  /** Of `inputTokens`, those read from a prompt cache. */
  readonly cachedInputTokens: number;
  /** Of `inputTokens`, those written to a prompt cache. */
  readonly cacheWriteTokens: number;
  /** The output tokens of those calls. */
  readonly outputTokens: number;
}
