import {
  fromOpenAIChatCompletion,
  ProviderResponseError,
  type CompletionResult,
} from 'conversation-memory';

/**
 * The result of a `chat.completion` object (streamed ones are assembled into one first): its first
 * choice's message and its usage, read by `fromOpenAIChatCompletion`.
 *
 * @param completion - the object the client returned (or the stream's assembly)
 * @param name - the provider's name, for the error
 * @param api - the API name for the error
 * @returns the message and the usage (when the reply has one)
 * @throws ProviderResponseError naming each path and value when it is not a usable completion
 * @example
 * ```ts
 * readCompletion({ choices: [{ message: { role: 'assistant', content: 'Hi' } }] }, 'openai', 'x');
 * // { message: { role: 'assistant', content: 'Hi' } }
 * ```
 * @internal
 */
export const readCompletion = (
  completion: unknown,
  name: string,
  api: string,
): CompletionResult => {
  const reply = fromOpenAIChatCompletion(completion);
  if (reply._tag === 'Left') {
    const { problems, problemCount } = reply.left;
    const more =
      problemCount > problems.length ? ` (and ${problemCount - problems.length} more)` : '';
    throw new ProviderResponseError(
      api,
      `the ${name} reply is not a usable chat.completion: ${problems.join('; ')}${more}`,
      { cause: reply.left, problems, problemCount },
    );
  }
  const { message, usage } = reply.right;
  return usage === undefined ? { message } : { message, usage };
};

/**
 * An error of the client's call as the provider rethrows it: a `SyntaxError` (the client could
 * not parse a JSON body, or a streamed chunk) is a bad reply, so a `ProviderResponseError`;
 * anything else (HTTP errors, timeouts, aborts) passes through unchanged.
 *
 * @param error - what the client threw
 * @param name - the provider's name
 * @param api - the API name
 * @returns the error to throw
 * @example
 * ```ts
 * throw callError(new SyntaxError('Unexpected token'), 'openai', 'openaiProvider.complete');
 * ```
 * @internal
 */
export const callError = (error: unknown, name: string, api: string): unknown =>
  error instanceof SyntaxError
    ? new ProviderResponseError(
        api,
        `the ${name} reply is not valid JSON (the client could not parse its body; see cause)`,
        { cause: error },
      )
    : error;
