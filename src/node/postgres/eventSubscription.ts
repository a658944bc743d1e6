import {
  isConversationMemoryError,
  MemoryArgumentError,
  type StoredAction,
  type StreamOptions,
} from 'conversation-memory';
import { checkEventOptions, describeValue, sessionKeyOf } from 'conversation-memory/store-kit';
import { withId } from '../environmentFailure';
import type { PostgresConnection } from './connection';

/**
 * Called with each action of a followed stream, in order, each once. It may return a promise: the
 * next action waits for it.
 *
 * @example
 * ```ts
 * const listener: PostgresStreamListener = ({ version, action }) => console.log(version, action.type);
 * ```
 */
export type PostgresStreamListener = (entry: StoredAction) => void | Promise<void>;

/**
 * Options of `PostgresEventStore.subscribe`: the stream's `namespace`, and `onError`, told of
 * everything that goes wrong while following: a listener that throws (the action is not delivered
 * again; the next one follows), a lost connection or a server that is down
 * (`StoreUnavailableError`: the subscription connects again, listens, and catches up after the
 * last action delivered), and a stream that does not decode (`EventCorruptError`) or whose
 * actions after `fromVersion` were pruned (`EventPrunedError`), after either of which the
 * subscription stops. Without `onError` these are dropped silently.
 *
 * @example
 * ```ts
 * const options: PostgresSubscribeOptions = { namespace: 'user-42', onError: (e) => log.warn(e) };
 * ```
 */
export interface PostgresSubscribeOptions extends StreamOptions {
  readonly onError?: ((error: unknown, entry?: StoredAction) => void) | undefined;
}

/**
 * Checks `subscribe`'s arguments before anything starts: the id and namespace, `fromVersion` (an
 * integer ≥ 0), the listener and `onError` (functions). Returns the stream's key and `onError`
 * wrapped so that every failure it is told of names the stream.
 *
 * @throws SessionIdError or MemoryArgumentError naming the argument
 * @example
 * ```ts
 * checkSubscribe('s1', 0, () => undefined, undefined, 'PostgresEventStore.subscribe').key; // 's1'
 * ```
 */
export const checkSubscribe = (
  streamId: string,
  fromVersion: unknown,
  listener: unknown,
  options: unknown,
  api: string,
): { readonly key: string; readonly onError: PostgresSubscribeOptions['onError'] } => {
  // Read once: the subscription sees the copy.
  const given = checkEventOptions(options, 'subscribe', api);
  const { key } = sessionKeyOf(streamId, options, api);
  if (typeof fromVersion !== 'number' || !Number.isSafeInteger(fromVersion) || fromVersion < 0) {
    throw new MemoryArgumentError(
      api,
      `fromVersion must be an integer ≥ 0 (0: from the first action), received ${describeValue(fromVersion)}`,
    );
  }
  if (typeof listener !== 'function') {
    throw new MemoryArgumentError(api, `listener must be a function, received ${typeof listener}`);
  }
  const report = given.onError;
  if (report !== undefined && typeof report !== 'function') {
    throw new MemoryArgumentError(api, 'options.onError must be a function');
  }
  const told = report as PostgresSubscribeOptions['onError'];
  return {
    key,
    onError:
      told === undefined
        ? undefined
        : (error: unknown, entry?: StoredAction) => told(withId(error, streamId), entry),
  };
};

/** What one subscription follows. */
export interface PostgresFollowed {
  readonly connection: PostgresConnection;
  readonly api: string;
  /** The channel the store's appends notify, and the payload of this stream's. */
  readonly channel: string;
  readonly payload: string;
  /** The stream's actions after `version`, read and checked as `read` does. */
  readonly after: (version: number) => AsyncIterable<StoredAction>;
}

/** How long a subscription waits for a notification before it reads anyway. */
const POLL_MS = 5_000;
/** The first and the longest wait before connecting again after a failure. */
const RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

/**
 * Follows a stream (see `PostgresEventStore.subscribe`): `LISTEN` on a connection of its own, then
 * a catch-up read of everything after the last delivered version, then again at each notification
 * of the stream (or every few seconds, should one be lost). Listening starts before the read, so
 * no append falls between them; after a failure the same steps start over from the last delivered
 * version: no gap, no repeat.
 *
 * @returns the function that stops it (resolves once the loop has ended)
 * @example
 * ```ts
 * const stop = followPostgresStream(followed, 0, listener, onError);
 * await stop();
 * ```
 */
export const followPostgresStream = (
  followed: PostgresFollowed,
  fromVersion: number,
  listener: PostgresStreamListener,
  onError: ((error: unknown, entry?: StoredAction) => void) | undefined,
): (() => Promise<void>) => {
  let stopped = false;
  let signalled = false;
  let wake: (() => void) | undefined;
  let failure: unknown;
  const signal = () => {
    signalled = true;
    wake?.();
  };
  const next = (ms: number) =>
    new Promise<void>((resolve) => {
      if (signalled || stopped) return resolve();
      const timer = setTimeout(() => wake?.(), ms);
      wake = () => {
        wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  const report = (error: unknown, entry?: StoredAction) => {
    try {
      onError?.(error, entry);
    } catch {
      // An onError that throws must not end the subscription.
    }
  };
  const loop = async () => {
    let last = fromVersion;
    let retry = RETRY_MS;
    while (!stopped) {
      let listening: { close(): Promise<void> } | undefined;
      failure = undefined;
      try {
        listening = await followed.connection.listen(
          followed.api,
          followed.channel,
          (payload) => {
            if (payload === followed.payload) signal();
          },
          (error) => {
            failure = error;
            signal();
          },
        );
        retry = RETRY_MS;
        while (!stopped) {
          signalled = false;
          for await (const entry of followed.after(last)) {
            if (stopped) break;
            try {
              await listener(entry);
            } catch (error) {
              report(error, entry);
            }
            last = entry.version;
          }
          if (failure !== undefined) throw failure;
          await next(POLL_MS);
          if (failure !== undefined) throw failure;
        }
      } catch (error) {
        if (stopped) break;
        report(error);
        // A damaged stream, or a range pruned away: reading again would fail the same way.
        const lasting = ['CM_EVENT_CORRUPT', 'CM_EVENT_PRUNED'];
        if (isConversationMemoryError(error) && lasting.includes(error.code)) break;
        signalled = false;
        await next(retry);
        retry = Math.min(retry * 2, MAX_RETRY_MS);
      } finally {
        await listening?.close();
      }
    }
  };
  const done = loop();
  return async () => {
    stopped = true;
    signal();
    await done;
  };
};
