import { streamText, type LanguageModel } from 'ai';
import {
  ProviderResponseError,
  type CompletionRequest,
  type CompletionResult,
  type CompletionStreamPart,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { toCompletionResult } from './toCompletionResult';
import { aiSdkPrompt } from './aiSdkPrompt';
import { toToolSet } from './toToolSet';
import { abortReason, streamEnd } from '../shared/streamEnd';

/**
 * The error an `error` part ends the iteration with: the SDK's own error as it is (its
 * `APICallError` for a provider's 400); a provider's error event sent mid-stream, which the SDK
 * passes on as the provider's plain JSON (`{ message, type }`), as a `ProviderResponseError`
 * whose message keeps the provider's and whose `cause` is that JSON, so the iteration never ends
 * with a value that is not an `Error`.
 */
const streamError = (error: unknown): unknown => {
  if (error instanceof Error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  return new ProviderResponseError(
    'aiSdkProvider.stream',
    `the provider sent an error mid-stream: ${describeValue(typeof message === 'string' ? message : error)}`,
    { cause: error },
  );
};

/**
 * One `streamText` call with the arguments `complete` gives `generateText`: the `text-delta`
 * parts of its `fullStream` as they arrive; at the end its `text`, `toolCalls` and `usage` read
 * by `toCompletionResult` as `complete` reads `generateText`'s, the tool calls as `tool-call`
 * parts, then `finish`. An `error` part ends the iteration with its error, unchanged (the SDK's
 * `APICallError` for a provider's 400), or a `ProviderResponseError` for a provider's error event
 * mid-stream (see `streamError`); an abort ends it with the signal's reason.
 *
 * @param model - the AI SDK model
 * @param maxRetries - passed to `streamText` when set
 * @param request - the model call
 * @returns the parts, ending with `finish`
 * @example
 * ```ts
 * for await (const part of streamTextParts(openai.chat('gpt-4o-mini'), undefined, request)) {
 *   if (part.type === 'text-delta') process.stdout.write(part.text);
 * }
 * ```
 * @internal
 */
export async function* streamTextParts(
  model: LanguageModel,
  maxRetries: number | undefined,
  request: CompletionRequest,
): AsyncGenerator<CompletionStreamPart, void, undefined> {
  const { signal } = request;
  const tools = toToolSet(request.tools);
  const result = streamText({
    model,
    ...aiSdkPrompt(model, request),
    ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    ...(tools === undefined ? {} : { tools }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    // Errors come as `error` parts of the full stream, thrown below; the default logs them.
    onError: () => undefined,
  });
  let streamed = '';
  let completion: CompletionResult;
  try {
    for await (const part of result.fullStream) {
      if (signal?.aborted === true || part.type === 'abort') break;
      if (part.type === 'error') throw streamError(part.error);
      if (part.type === 'text-delta' && part.text !== '') {
        streamed += part.text;
        yield { type: 'text-delta', text: part.text };
      }
    }
    if (signal?.aborted === true) throw abortReason(signal);
    completion = toCompletionResult({
      text: await result.text,
      toolCalls: await result.toolCalls,
      usage: await result.usage,
    });
  } catch (error) {
    // An abort also fails the SDK's stream (with its own error): the signal's reason wins.
    if (signal?.aborted === true) throw abortReason(signal);
    throw error;
  }
  yield* streamEnd(completion, streamed);
}
