import type OpenAI from 'openai';
import {
  ProviderResponseError,
  type CompletionRequest,
  type CompletionStreamPart,
} from 'conversation-memory';
import { chatParams } from './chatParams';
import { ChunkAssembly } from './chunkAssembly';
import { callError, readCompletion } from './readCompletion';
import { abortReason, streamEnd } from '../shared/streamEnd';

/** Settings of one streamed call. */
export interface StreamChatSettings {
  readonly client: OpenAI;
  readonly name: string;
  readonly defaultModel: string | undefined;
  readonly api: string;
}

/**
 * One streamed Chat Completions call (`stream: true`, `stream_options: { include_usage: true }`):
 * the content's pieces as `text-delta` parts as they arrive; at the end, the chunks assembled
 * into a `chat.completion` and read as `complete` reads one (so `finish` is what `complete`
 * would give), its tool calls as `tool-call` parts, and `finish`. A refusal (which `complete`
 * returns as the content) comes as one delta at the end, so the deltas joined are always the
 * result's text. An aborted signal ends the iteration with its reason (the client itself ends its
 * stream quietly on abort); a stream that ends with no `finish_reason` is a
 * `ProviderResponseError`, as are chunks of the wrong shape; HTTP errors pass through unchanged.
 *
 * @param settings - the client, the provider's name and default model, the API name
 * @param request - the model call
 * @returns the parts, ending with `finish`
 * @example
 * ```ts
 * for await (const part of streamChat({ client, name: 'openai', defaultModel: undefined, api: 'x' }, request)) {
 *   if (part.type === 'text-delta') process.stdout.write(part.text);
 * }
 * ```
 * @internal
 */
export async function* streamChat(
  settings: StreamChatSettings,
  request: CompletionRequest,
): AsyncGenerator<CompletionStreamPart, void, undefined> {
  const { client, name, api } = settings;
  const { signal } = request;
  const params = chatParams(request, settings.defaultModel, api);
  const assembly = new ChunkAssembly(name, api);
  let streamed = '';
  try {
    const stream = await client.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      signal === undefined ? undefined : { signal },
    );
    for await (const chunk of stream) {
      if (signal?.aborted === true) break;
      const text = assembly.add(chunk);
      if (text !== '') {
        streamed += text;
        yield { type: 'text-delta', text };
      }
    }
  } catch (error) {
    if (signal?.aborted === true) throw abortReason(signal);
    throw callError(error, name, api);
  }
  if (signal?.aborted === true) throw abortReason(signal);
  if (!assembly.finished) {
    throw new ProviderResponseError(
      api,
      `the ${name} stream ended before a finish_reason (the connection was cut, or the server stopped early)`,
    );
  }
  const result = readCompletion(assembly.completion(), name, api);
  yield* streamEnd(result, streamed);
}
