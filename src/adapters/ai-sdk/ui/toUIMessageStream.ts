import type { UIMessageChunk } from 'ai';
import {
  MemoryArgumentError,
  type AgentRunResult,
  type AgentStreamEvent,
  type JsonObject,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readStreamOptions, type CheckedStreamOptions } from './readStreamOptions';
import { uiMessageChunks, type UIRunEnd } from './uiMessageChunks';
import type { UIMessageStreamStore } from './uiMessageStreamStore';

/**
 * What `onFinish` of {@link toUIMessageStream} receives, once, when the run has ended.
 *
 * @example
 * ```ts
 * const onFinish = ({ messageId, isAborted }: UIMessageStreamFinish) => console.log(messageId, isAborted);
 * ```
 */
export interface UIMessageStreamFinish {
  /** The streamed message's id (the id the run's messages are recorded with). */
  readonly messageId: string;
  /** The run was stopped: its signal, the reader leaving, or a stop through the store. */
  readonly isAborted: boolean;
  /** The run failed (the stream ended with an `error` chunk). */
  readonly isError: boolean;
  /** `'stop'`, or `'length'` when the run ran out of iterations; absent when it did not finish. */
  readonly finishReason?: 'stop' | 'length';
  /** What `agent.run` would have resolved to, when the run finished. */
  readonly result?: AgentRunResult;
}

/**
 * Options of {@link toUIMessageStream} and `toUIMessageStreamResponse`.
 *
 * @example
 * ```ts
 * const options: ToUIMessageStreamOptions = { store, chatId: 'chat-1', onError: () => 'Sorry.' };
 * ```
 */
export interface ToUIMessageStreamOptions {
  /** The message's id (default: the stream's `messageId`, else a new UUID). */
  readonly messageId?: string;
  /** Sent as `messageMetadata` with `start` and `finish`. */
  readonly messageMetadata?: JsonObject;
  /**
   * The `errorText` sent when the run fails (default: `'An error occurred.'`: an error's own text
   * may hold what a client must not see, as the AI SDK's default says).
   */
  readonly onError?: (error: unknown) => string;
  /** Called once when the run has ended (finished, stopped or failed). */
  readonly onFinish?: (event: UIMessageStreamFinish) => void | Promise<void>;
  /**
   * Keep every chunk in this store under `chatId` while the run goes on, so that another request
   * can read it (`resumeUIMessageStream`) or stop it (`store.requestStop(chatId)`). With a store,
   * a reader that leaves (the page reloaded) does not stop the run.
   */
  readonly store?: UIMessageStreamStore;
  /** The chat's id in `store` (required with `store`). */
  readonly chatId?: string;
  /** Told when the store refuses a chunk; the stream goes on without it. */
  readonly onStoreError?: (error: unknown) => void;
}

const API = 'toUIMessageStream';

/**
 * The checked options of `api` (`toUIMessageStream`, or the response that wraps it, with its
 * `more` keys); the message id is the option's, else the stream's, else a new one.
 *
 * @example
 * ```ts
 * const checked = checkStreamCall('toUIMessageStream', agent.stream('hi'), {}, []);
 * ```
 * @internal
 */
export const checkStreamCall = <K extends string>(
  api: string,
  stream: AsyncIterable<AgentStreamEvent>,
  given: unknown,
  more: readonly K[],
): {
  readonly options: CheckedStreamOptions;
  readonly messageId: string;
  readonly more: Partial<Record<K, unknown>>;
} => {
  if (
    typeof (stream as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] !== 'function'
  ) {
    throw new MemoryArgumentError(
      api,
      `stream must be agent.stream(...), received ${describeValue(stream)}`,
    );
  }
  const { options, more: extra } = readStreamOptions(api, given, more);
  const id = options.messageId ?? (stream as { messageId?: unknown }).messageId;
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    throw new MemoryArgumentError(
      api,
      `options.messageId must be a non-empty string, received ${describeValue(id)}`,
    );
  }
  const messageId = (id as string | undefined) ?? globalThis.crypto.randomUUID();
  return { options, messageId, more: extra };
};

/**
 * The AI SDK UI message stream of an agent's run (`agent.stream(input, { messageId })`): the
 * chunks `useChat` reads (`start` with the message id, steps with their text and tool parts,
 * `finish`), for `createUIMessageStreamResponse` or {@link toUIMessageStreamResponse}. The
 * message id is the stream's `messageId` (what the agent records the run's messages with, so
 * `toUIMessages` of the memory gives the same message); without one, a new id the memory does
 * not know.
 *
 * Stopping: cancelling the stream (the client went away) stops the run (the agent keeps the part
 * the user saw, marked `metadata.interrupted: true`), unless a `store` is given: then the run goes
 * on and is kept for `resumeUIMessageStream`, and a stop comes through `store.requestStop(chatId)`.
 * A stopped run ends with `abort` and `finish`, and `onFinish` says `isAborted`.
 *
 * @param stream - `agent.stream(...)`, not iterated yet
 * @param options - `messageId`, `messageMetadata`, `onError`, `onFinish`, `store`, `chatId` and
 *   `onStoreError` (an unknown key, or a value of the wrong kind, is a `MemoryArgumentError`)
 * @returns the chunks
 * @throws MemoryArgumentError for an option that is not valid
 * @example
 * ```ts
 * const chunks = toUIMessageStream(agent.stream('hi', { messageId: crypto.randomUUID() }));
 * for await (const chunk of chunks) console.log(chunk.type);
 * ```
 */
export const toUIMessageStream = (
  stream: AsyncIterable<AgentStreamEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> =>
  uiMessageStreamOf(stream, checkStreamCall(API, stream, options, []));

/**
 * {@link toUIMessageStream} with options already checked by {@link checkStreamCall}.
 *
 * @example
 * ```ts
 * const stream = agent.stream('hi');
 * uiMessageStreamOf(stream, checkStreamCall('toUIMessageStream', stream, {}, []));
 * ```
 * @internal
 */
export const uiMessageStreamOf = (
  stream: AsyncIterable<AgentStreamEvent>,
  { options, messageId }: { readonly options: CheckedStreamOptions; readonly messageId: string },
): ReadableStream<UIMessageChunk> => {
  let iterator: AsyncIterator<AgentStreamEvent> | undefined;
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    void iterator?.return?.()?.catch(() => undefined);
  };
  const events: AsyncIterable<AgentStreamEvent> = {
    [Symbol.asyncIterator]: () => (iterator = stream[Symbol.asyncIterator]()),
  };
  let end: UIRunEnd | undefined;
  const chunks = uiMessageChunks(events, {
    messageId,
    messageMetadata: options.messageMetadata,
    errorText: options.onError ?? (() => 'An error occurred.'),
    stopped: () => stopped,
    ended: (how) => (end = how),
  });
  const finish = async (): Promise<void> => {
    if (end === undefined || options.onFinish === undefined) return;
    const result = end.kind === 'finished' ? end.result : undefined;
    await options.onFinish({
      messageId,
      isAborted: end.kind === 'aborted',
      isError: end.kind === 'failed',
      ...(result === undefined
        ? {}
        : { finishReason: result.stopReason === 'final' ? 'stop' : 'length', result }),
    });
  };

  if (options.store === undefined) {
    let draining = false;
    return new ReadableStream<UIMessageChunk>({
      pull: async (controller) => {
        const next = await chunks.next();
        if (next.done === true) {
          await finish();
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel: async () => {
        // The reader left: stop the run, and let it end (it keeps what the user saw).
        stop();
        if (draining) return;
        draining = true;
        for (;;) if ((await chunks.next()).done === true) break;
        await finish();
      },
    });
  }

  const store = options.store;
  const chatId = options.chatId as string;
  let reader: ReadableStreamDefaultController<UIMessageChunk> | undefined;
  return new ReadableStream<UIMessageChunk>({
    start: (controller) => {
      reader = controller;
      void (async () => {
        let streamId: string | undefined;
        let unwatch = (): void => undefined;
        const record = async (chunk: UIMessageChunk): Promise<void> => {
          if (streamId === undefined) return;
          try {
            await store.append(chatId, streamId, chunk);
          } catch (error) {
            streamId = undefined;
            options.onStoreError?.(error);
          }
        };
        try {
          streamId = await store.begin(chatId);
          unwatch = store.watchStop(chatId, streamId, stop);
        } catch (error) {
          options.onStoreError?.(error);
        }
        for (;;) {
          const next = await chunks.next();
          if (next.done === true) break;
          await record(next.value);
          try {
            reader?.enqueue(next.value);
          } catch {
            reader = undefined; // the reader left; the run goes on, kept in the store
          }
        }
        unwatch();
        if (streamId !== undefined) {
          await store
            .end(chatId, streamId)
            .catch((error: unknown) => options.onStoreError?.(error));
        }
        await finish();
        try {
          reader?.close();
        } catch {
          // already cancelled
        }
      })().catch((error: unknown) => {
        // onFinish threw: the reader (if still there) gets the error.
        try {
          reader?.error(error);
        } catch {
          // already cancelled
        }
      });
    },
    cancel: () => {
      reader = undefined;
    },
  });
};
