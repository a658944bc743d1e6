import type { CompletionResult, CompletionStreamPart } from '../provider';
import type { LocalSignal } from './readRequest';

/**
 * A word and the white space after it, the first one with any white space before it too. A text
 * of white space only matches nothing (see {@link wordDeltas}).
 */
const WORD = /^\s*\S+\s*|\S+\s*/g;

/**
 * Cuts `text` into the deltas `LocalProvider.stream` yields: one word each, with the white space
 * that follows it (the first also with the white space before it), so that the deltas joined are
 * `text`. A text of white space only is one delta; `''` is none.
 *
 * @param text - the reply's text
 * @returns the deltas, in order
 * @example
 * ```ts
 * wordDeltas('Hello there,  Ada.'); // ['Hello ', 'there,  ', 'Ada.']
 * ```
 * @internal
 */
export const wordDeltas = (text: string): string[] => {
  const words = text.match(WORD) ?? [];
  return words.length === 0 && text !== '' ? [text] : words;
};

/** The signal's reason, or an `AbortError` when it has none. @internal */
export const abortReason = (signal: { readonly reason: unknown }): unknown =>
  signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * The parts of a streamed reply that is already decided: its text word by word, its tool calls,
 * then `finish` with the result itself. The signal is checked before each part, so an abort
 * between two deltas ends the iteration with the signal's reason and nothing after it.
 *
 * @param result - the whole reply, as `complete` resolves it
 * @param signal - the request's signal as checked, when it has one (read again before each part)
 * @returns the parts, lazily
 * @example
 * ```ts
 * for await (const part of streamParts({ message: assistantMessage('Hi there') })) part.type;
 * // 'text-delta', 'text-delta', 'finish'
 * ```
 * @internal
 */
export async function* streamParts(
  result: CompletionResult,
  signal: LocalSignal | undefined,
): AsyncGenerator<CompletionStreamPart, void, undefined> {
  const { message } = result;
  const parts: CompletionStreamPart[] = [
    ...wordDeltas(message.content ?? '').map((text) => ({ type: 'text-delta' as const, text })),
    ...(message.toolCalls ?? []).map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id ?? '',
      toolName: call.name,
      input: call.parameters,
    })),
    { type: 'finish', result },
  ];
  for (const part of parts) {
    const now = signal?.reread();
    if (now?.aborted === true) throw abortReason(now);
    yield part;
  }
}
