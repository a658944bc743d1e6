import type { Message } from './message';

/**
 * Token usage a provider reported for one call.
 *
 * @example
 * ```ts
 * const usage: CompletionUsage = { inputTokens: 120, outputTokens: 35 };
 * ```
 */
export interface CompletionUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
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
