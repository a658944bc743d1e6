import { MemoryArgumentError } from 'conversation-memory';
import { describeValue, readOptionFields } from 'conversation-memory/store-kit';
import { checkChatId } from './checkChatId';
import type { ToUIMessageStreamOptions } from './toUIMessageStream';
import type { UIMessageStreamStore } from './uiMessageStreamStore';

/** The options of `toUIMessageStream`, read once and checked (`messageId` is checked later,
 * with the stream's own). @internal */
export type CheckedStreamOptions = Omit<ToUIMessageStreamOptions, 'messageId'> & {
  readonly messageId?: unknown;
};

/** The keys `toUIMessageStream` reads. @internal */
export const STREAM_OPTION_KEYS = [
  'messageId',
  'messageMetadata',
  'onError',
  'onFinish',
  'store',
  'chatId',
  'onStoreError',
] as const;

/** The methods each use of a stream store calls. */
const WRITER_METHODS = ['begin', 'append', 'end', 'watchStop'] as const;
const READER_METHODS = ['read'] as const;

/** `value`, when it is a function; else a `MemoryArgumentError` naming `options.<key>`. */
const optionalFunction = <F>(api: string, key: string, value: unknown): F | undefined => {
  if (value === undefined || typeof value === 'function') return value as F | undefined;
  throw new MemoryArgumentError(
    api,
    `options.${key} must be a function, received ${describeValue(value)}`,
  );
};

/**
 * `value` as a stream store, when it has the methods `methods` (the ones the call uses); else a
 * `MemoryArgumentError` naming the first one missing.
 */
const streamStore = (
  api: string,
  value: unknown,
  methods: readonly string[],
): UIMessageStreamStore => {
  const missing =
    typeof value !== 'object' || value === null
      ? methods[0]
      : methods.find((name) => typeof (value as Record<string, unknown>)[name] !== 'function');
  if (missing !== undefined) {
    throw new MemoryArgumentError(
      api,
      `options.store must be a UIMessageStreamStore (createMemoryUIMessageStreamStore(), new RedisUIMessageStreamStore(...)) with a ${missing} method, received ${describeValue(value)}`,
    );
  }
  return value as UIMessageStreamStore;
};

/**
 * Reads the options of `toUIMessageStream` (and the stream part of
 * `toUIMessageStreamResponse`): an unknown key, a callback that is not a function, metadata that
 * is not an object, a store without the methods a run uses, or a `chatId` that is missing with a
 * store (or given without one) is a `MemoryArgumentError` naming the option and its value. Each
 * field is read once.
 *
 * @param api - the public call, for the errors
 * @param options - what the caller gave
 * @param more - further keys the call reads (they are returned as given, unchecked)
 * @returns the checked options, and the further keys' values
 * @throws MemoryArgumentError for an option that is not valid
 * @example
 * ```ts
 * readStreamOptions('toUIMessageStream', { onError: () => 'Sorry.' }).options.onError; // the function
 * ```
 * @internal
 */
export const readStreamOptions = <K extends string>(
  api: string,
  options: unknown,
  more: readonly K[] = [],
): { readonly options: CheckedStreamOptions; readonly more: Partial<Record<K, unknown>> } => {
  const given = readOptionFields(
    options,
    [...STREAM_OPTION_KEYS, ...more] as readonly string[],
    api,
    { example: "{ store, chatId: 'chat-1' }" },
  ) as Record<string, unknown>;
  const metadata = given['messageMetadata'];
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  ) {
    throw new MemoryArgumentError(
      api,
      `options.messageMetadata must be a JSON object, received ${describeValue(metadata)}`,
    );
  }
  const store =
    given['store'] === undefined ? undefined : streamStore(api, given['store'], WRITER_METHODS);
  if (store !== undefined) checkChatId(api, given['chatId']);
  else if (given['chatId'] !== undefined) {
    throw new MemoryArgumentError(api, 'chatId is given without a store');
  }
  const checked: CheckedStreamOptions = {
    messageId: given['messageId'],
    ...(metadata === undefined
      ? {}
      : { messageMetadata: metadata as NonNullable<ToUIMessageStreamOptions['messageMetadata']> }),
    ...pick('onError', optionalFunction(api, 'onError', given['onError'])),
    ...pick('onFinish', optionalFunction(api, 'onFinish', given['onFinish'])),
    ...pick('onStoreError', optionalFunction(api, 'onStoreError', given['onStoreError'])),
    ...(store === undefined ? {} : { store, chatId: given['chatId'] as string }),
  };
  const rest: Partial<Record<K, unknown>> = {};
  for (const key of more) if (given[key] !== undefined) rest[key] = given[key];
  return { options: checked, more: rest };
};

/** `{ [key]: value }`, or nothing when `value` is `undefined`. */
const pick = <V>(key: string, value: V | undefined): Record<string, V> =>
  value === undefined ? {} : { [key]: value };

/**
 * Reads the options of `resumeUIMessageStream`: `store` (with a `read` method), `chatId`, and an
 * optional `signal`, each checked and read once; anything else is a `MemoryArgumentError`.
 *
 * @example
 * ```ts
 * readResumeOptions('resumeUIMessageStream', { store, chatId: 'chat-1' }).chatId; // 'chat-1'
 * ```
 * @internal
 */
export const readResumeOptions = (
  api: string,
  options: unknown,
): {
  readonly store: UIMessageStreamStore;
  readonly chatId: string;
  readonly signal?: AbortSignal;
} => {
  if (options === undefined) {
    throw new MemoryArgumentError(
      api,
      "options must be an object such as { store, chatId: 'chat-1' }, received undefined",
    );
  }
  const given = readOptionFields(options, ['store', 'chatId', 'signal'], api, {
    example: "{ store, chatId: 'chat-1' }",
  });
  const store = streamStore(api, given.store, READER_METHODS);
  const chatId = checkChatId(api, given.chatId);
  const signal = given.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new MemoryArgumentError(
      api,
      `options.signal must be an AbortSignal, received ${describeValue(signal)}`,
    );
  }
  return { store, chatId, ...(signal === undefined ? {} : { signal }) };
};
