import type { CompletionResult, CompletionStreamPart } from 'conversation-memory';

/**
 * The signal's reason, or an `AbortError` when it has none: what a streamed call throws when its
 * signal aborts.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * controller.abort();
 * abortReason(controller.signal); // DOMException AbortError
 * ```
 * @internal
 */
export const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * The last parts of a streamed call, once its reply is read as `complete` reads one: a catch-up
 * `text-delta` for any text the events did not give (when the reply's text continues what was
 * streamed), each tool call as a `tool-call` part, then `finish`. Shared by the adapters.
 *
 * @param result - the reply, as `complete` would resolve it
 * @param streamed - the text already yielded as deltas
 * @returns the parts
 * @example
 * ```ts
 * [...streamEnd({ message: assistantMessage('Hello') }, 'Hel')].map((p) => p.type);
 * // ['text-delta', 'finish']
 * ```
 * @internal
 */
export function* streamEnd(
  result: CompletionResult,
  streamed: string,
): Generator<CompletionStreamPart> {
  const text = result.message.content ?? '';
  if (text.startsWith(streamed) && text.length > streamed.length) {
    yield { type: 'text-delta', text: text.slice(streamed.length) };
  }
  for (const call of result.message.toolCalls ?? []) {
    yield {
      type: 'tool-call',
      toolCallId: call.id ?? '',
      toolName: call.name,
      input: call.parameters,
    };
  }
  yield { type: 'finish', result };
}
