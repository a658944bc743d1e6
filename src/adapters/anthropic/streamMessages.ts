import type { CompletionRequest, CompletionStreamPart } from 'conversation-memory';
import { messagesParams, readReply, type MessagesSettings } from './messagesParams';
import { abortReason, streamEnd } from '../shared/streamEnd';

/**
 * One streamed Messages API call through the SDK's `client.messages.stream`: `text_delta` events
 * as `text-delta` parts, then the SDK's `finalMessage()` read as `complete` reads a reply, its
 * tool calls as `tool-call` parts, and `finish`. The deltas joined are the result's text (text
 * blocks are joined with nothing between them); a catch-up delta covers any text the events did
 * not give. An aborted signal ends the iteration with its reason; other errors of the stream (a
 * 400, a dropped connection, the SDK's `APIUserAbortError`) pass through unchanged.
 *
 * @param settings - the client and the provider's defaults
 * @param request - the model call
 * @returns the parts, ending with `finish`
 * @example
 * ```ts
 * for await (const part of streamMessages(settings, request)) {
 *   if (part.type === 'text-delta') process.stdout.write(part.text);
 * }
 * ```
 * @internal
 */
export async function* streamMessages(
  settings: MessagesSettings,
  request: CompletionRequest,
): AsyncGenerator<CompletionStreamPart, void, undefined> {
  const { signal } = request;
  const params = messagesParams(settings, request);
  const stream = settings.client.messages.stream(
    params,
    signal === undefined ? undefined : { signal },
  );
  // Read the final message from the start, so that a failure before the loop reads it is never an
  // unhandled rejection; it is awaited (and its error thrown) after the events.
  const final = stream.finalMessage().then(
    (message) => ({ ok: true as const, message }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  let streamed = '';
  try {
    for await (const event of stream) {
      if (signal?.aborted === true) break;
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        streamed += event.delta.text;
        yield { type: 'text-delta', text: event.delta.text };
      }
    }
  } catch (error) {
    if (signal?.aborted === true) throw abortReason(signal);
    throw error;
  } finally {
    // Left early (the consumer stopped, or an error): stop the HTTP stream too.
    if (!stream.ended) stream.abort();
  }
  if (signal?.aborted === true) throw abortReason(signal);
  const outcome = await final;
  if (!outcome.ok) throw outcome.error;
  const result = readReply(outcome.message, settings.name);
  yield* streamEnd(result, streamed);
}
