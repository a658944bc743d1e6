import { either as E } from 'fp-ts';
import { ProviderResponseError } from '../errors/agentErrors';
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

/** A reply's error message lists at most this many problems (all are in `problems`). */
const MAX_LISTED = 5;

/**
 * The `Left` both reply decoders return: a `ProviderResponseError` whose message lists the first
 * problems (`… and 3 more`, or `at least` when the decoder stopped counting) and whose
 * `problems` holds them all.
 *
 * @param api - the decoder's name, for the prefix
 * @param what - what the reply should have been (`a valid chat.completion`)
 * @param problems - each problem with its path and value
 * @param complete - whether every problem was counted
 * @returns the failure
 * @example
 * ```ts
 * replyFailure('fromAnthropicReply', 'a valid Anthropic message', ['content: expected a list, got 7'], true);
 * ```
 * @internal
 */
export const replyFailure = (
  api: string,
  what: string,
  problems: readonly string[],
  complete: boolean,
): E.Either<ProviderResponseError, never> => {
  const more = problems.length - MAX_LISTED;
  const rest = more > 0 ? [`… and ${complete ? '' : 'at least '}${more} more`] : [];
  const listed = [...problems.slice(0, MAX_LISTED), ...rest].join('; ');
  return E.left(
    new ProviderResponseError(api, `the reply is not ${what}: ${listed}`, {
      problems,
      problemCount: problems.length,
    }),
  );
};
