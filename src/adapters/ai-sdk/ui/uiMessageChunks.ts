import type { UIMessageChunk } from 'ai';
import type { AgentRunResult, AgentStreamEvent, JsonObject } from 'conversation-memory';

/**
 * How a run ended, as {@link uiMessageChunks} saw it: its result, or that it was stopped (an
 * abort: the caller's signal, or the stream stopped by its reader or through a store), or failed.
 *
 * @internal
 */
export type UIRunEnd =
  | { readonly kind: 'finished'; readonly result: AgentRunResult }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** What {@link uiMessageChunks} is given. */
interface ChunkOptions {
  readonly messageId: string;
  readonly messageMetadata: JsonObject | undefined;
  /** The `errorText` of the `error` chunk a failed run ends with. */
  readonly errorText: (error: unknown) => string;
  /** Whether the run was stopped (by its reader, through a store, or by its signal). */
  readonly stopped: () => boolean;
  /** Called once, with how the run ended, before the last chunk. */
  readonly ended: (end: UIRunEnd) => void;
}

/** Whether an error is an abort (a `DOMException`/`Error` named `AbortError`, or a timeout). */
const isAbort = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ['AbortError', 'TimeoutError'].includes(String((error as { name?: unknown }).name));

/**
 * The AI SDK UI message stream chunks of an agent's run, in the order the SDK's own
 * `toUIMessageStream` writes them: `start` (with the message id), then per model call a step
 * (`start-step`, its text as `text-start`/`text-delta`/`text-end`, each tool call as
 * `tool-input-available` and its result as `tool-output-available`, or `tool-output-error` when
 * the result is an error, `finish-step` once every call of the step is answered), then `finish`
 * (`finishReason` `'stop'`, or `'length'` when the run ran out of iterations). A stopped run
 * ends its open text and step, then `abort` and `finish`; a failed one ends with `error`.
 * Memory effects are not sent.
 *
 * @internal
 */
export async function* uiMessageChunks(
  events: AsyncIterable<AgentStreamEvent>,
  options: ChunkOptions,
): AsyncGenerator<UIMessageChunk> {
  const { messageId } = options;
  let texts = 0;
  let text: string | undefined;
  let step = false;
  const unanswered = new Set<string>();
  const metadata =
    options.messageMetadata === undefined ? {} : { messageMetadata: options.messageMetadata };
  const endText = (): UIMessageChunk[] => {
    if (text === undefined) return [];
    const id = text;
    text = undefined;
    return [{ type: 'text-end', id }];
  };
  const endStep = (): UIMessageChunk[] => {
    if (!step) return [];
    step = false;
    unanswered.clear();
    return [...endText(), { type: 'finish-step' }];
  };
  const startStep = (): UIMessageChunk[] => {
    if (step) return [];
    step = true;
    return [{ type: 'start-step' }];
  };

  yield { type: 'start', messageId, ...metadata };
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'text-delta': {
          if (event.text === '') break;
          yield* startStep();
          if (text === undefined) {
            text = `${messageId}-text-${texts++}`;
            yield { type: 'text-start', id: text };
          }
          yield { type: 'text-delta', id: text, delta: event.text };
          break;
        }
        case 'tool-call': {
          yield* startStep();
          yield* endText();
          unanswered.add(event.toolCallId);
          yield {
            type: 'tool-input-available',
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            input: event.input,
          };
          break;
        }
        case 'tool-result': {
          yield* startStep();
          yield event.isError
            ? { type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.output }
            : { type: 'tool-output-available', toolCallId: event.toolCallId, output: event.output };
          unanswered.delete(event.toolCallId);
          if (unanswered.size === 0) yield* endStep();
          break;
        }
        case 'finish': {
          if (event.result.stopReason === 'maxIterations') {
            // The run answered the calls it did not run and ended with a notice: as memory holds them.
            const notice = event.result.message.content ?? '';
            for (const toolCallId of unanswered) {
              yield { type: 'tool-output-available', toolCallId, output: `Not run: ${notice}` };
            }
            yield* endStep();
            yield* startStep();
            const id = `${messageId}-text-${texts++}`;
            yield { type: 'text-start', id };
            yield { type: 'text-delta', id, delta: notice };
            yield { type: 'text-end', id };
          }
          yield* endStep();
          options.ended({ kind: 'finished', result: event.result });
          const finishReason = event.result.stopReason === 'final' ? 'stop' : 'length';
          yield { type: 'finish', finishReason, ...metadata };
          return;
        }
        default:
          break;
      }
    }
    // The events ended without `finish`: the reader stopped the run.
    yield* endStep();
    options.ended({ kind: 'aborted' });
    yield { type: 'abort' };
    yield { type: 'finish', ...metadata };
  } catch (error) {
    yield* endStep();
    if (options.stopped() || isAbort(error)) {
      options.ended({ kind: 'aborted' });
      yield { type: 'abort' };
      yield { type: 'finish', ...metadata };
      return;
    }
    options.ended({ kind: 'failed', error });
    yield { type: 'error', errorText: options.errorText(error) };
  }
}
