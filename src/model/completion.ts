import type { Message } from './message';

/**
 * Token usage a provider reported for one call.
 *
 * `inputTokens` counts **every** input token of the call, whether the provider read it from its
 * prompt cache, wrote it to the cache, or neither: OpenAI's `prompt_tokens` as it is, Anthropic's
 * `input_tokens + cache_read_input_tokens + cache_creation_input_tokens` (Anthropic's
 * `input_tokens` leaves the cached tokens out; the adapters add them back, so the two providers'
 * numbers mean the same thing). `cachedInputTokens` and `cacheWriteTokens` are parts of it, and
 * are absent when the provider did not say (read them as 0).
 *
 * @example
 * ```ts
 * const usage: CompletionUsage = { inputTokens: 120, outputTokens: 35 };
 * const cached: CompletionUsage = { inputTokens: 5000, cachedInputTokens: 4096, cacheWriteTokens: 0, outputTokens: 35 };
 * ```
 */
export interface CompletionUsage {
  /** Every input (prompt) token of the call, cached or not. */
  readonly inputTokens: number;
  /** The output (completion) tokens of the call. */
  readonly outputTokens: number;
  /**
   * Of `inputTokens`, those read from the provider's prompt cache (OpenAI
   * `usage.prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`, the AI SDK's
   * `inputTokenDetails.cacheReadTokens`); absent when the provider did not say.
   */
  readonly cachedInputTokens?: number;
  /**
   * Of `inputTokens`, those written to the provider's prompt cache (Anthropic
   * `cache_creation_input_tokens`, the AI SDK's `inputTokenDetails.cacheWriteTokens`; OpenAI
   * does not bill writes and never says); absent when the provider did not say.
   */
  readonly cacheWriteTokens?: number;
}

/**
 * A provider's answer: one assistant message (text, tool calls with ids, or both) and the usage
 * when the provider reports it.
 *
 * @example
 * ```ts
 * const result: CompletionResult = { message: assistantMessage('Hello!'), usage: { inputTokens: 9, outputTokens: 2 } };
 * ```
 */
export interface CompletionResult {
  readonly message: Message;
  readonly usage?: CompletionUsage;
}
