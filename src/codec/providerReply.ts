import type { CompletionResult } from '../model/completion';

/**
 * A model's reply as `fromOpenAIChatCompletion` and `fromAnthropicReply` both read it: the
 * assistant message, why the model stopped, and the usage. It is a `CompletionResult` (what a
 * `Provider` returns) with the stop reason added.
 *
 * @example
 * ```ts
 * const reply: ProviderReply = {
 *   message: { role: 'assistant', content: 'Hello!' },
 *   finishReason: 'stop',
 *   usage: { inputTokens: 9, outputTokens: 2 },
 * };
 * ```
 */
export interface ProviderReply extends CompletionResult {
  /**
   * Why the model stopped, as the provider sent it: OpenAI's `finish_reason` (`'stop'`,
   * `'tool_calls'`, `'length'`, …) or Anthropic's `stop_reason` (`'end_turn'`, `'tool_use'`,
   * `'max_tokens'`, …); `null` when the reply has none.
   */
  readonly finishReason: string | null;
}
