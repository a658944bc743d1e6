import {
  EventCorruptError,
  EventPrunedError,
  MemoryArgumentError,
  type StoredAction,
  type StreamOptions,
} from 'conversation-memory';
import { describeValue, readActionJson } from 'conversation-memory/store-kit';
import { withId } from '../environmentFailure';
import type { RedisConnection } from './connection';
import { redisText } from './reply';

/**
 * Called with each action of a followed stream, in order, each once. It may return a promise:
 * the next action waits for it.
 *
 * @example
 * ```ts
 * const listener: StreamListener = ({ version, action }) => console.log(version, action.type);
 * ```
 */
export type StreamListener = (entry: StoredAction) => void | Promise<void>;

/**
 * Options of `RedisEventStore.subscribe`: the stream's `namespace`, and `onError`, told of
 * everything that goes wrong while following: a listener that throws (the action is not
 * delivered again; the next one follows), a lost connection (`StoreUnavailableError`, whose `id`
 * is the stream's, as every failure of the store to reach Redis names it: the subscription
 * reconnects, on a cluster to the slot's new master after a failover, and resumes
 * after the last action delivered), and, with `EventCorruptError` after which the subscription
 * stops (it cannot deliver the rest in order), a stored entry that does not decode or breaks the
 * version sequence, or a last delivered action no longer in the stream once reconnected (a
 * failover lost it). Without `onError` these are dropped silently.
 *
 * @example
 * ```ts
 * const options: SubscribeOptions = { namespace: 'user-42', onError: (e) => log.warn(e) };
 * ```
 */
export interface SubscribeOptions extends StreamOptions {
  readonly onError?: ((error: unknown, entry?: StoredAction) => void) | undefined;
}

/**
 * Stops a subscription: no listener call starts after it is called; resolves once the loop has
 * ended (a listener call in progress finished) and its connection is closed.
 *
 * @example
 * ```ts
 * const unsubscribe: Unsubscribe = store.subscribe('s1', 0, listener);
 * await unsubscribe();
 * ```
 */
export type Unsubscribe = () => Promise<void>;

/** Entries asked of each `XREAD`. */
const COUNT = '100';

/** The `[id, fields]` entries of the one stream an `XREAD` reply holds (RESP2 or RESP3). */
const entriesOf = (reply: unknown, name: string): readonly unknown[] => {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) {
    const found = reply.find((item) => Array.isArray(item) && redisText(item[0]) === name);
    return Array.isArray(found) && Array.isArray(found[1]) ? (found[1] as unknown[]) : [];
  }
  const value =
    reply instanceof Map ? (reply.get(name) as unknown) : (reply as Record<string, unknown>)[name];
  return Array.isArray(value) ? value : [];
};

const actionJsonOf = (fields: unknown): unknown => {
  if (!Array.isArray(fields)) {
    return fields instanceof Map ? fields.get('a') : (fields as Record<string, unknown>)?.['a'];
  }
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (redisText(fields[i]) === 'a') return redisText(fields[i + 1]);
  }
  return undefined;
};

/** What one subscription follows. */
export interface FollowedStream {
  /** A connection of its own (closed when the subscription ends). */
  readonly connection: RedisConnection;
  /** The Redis Stream's name. */
  readonly name: string;
  /** The stream's meta hash (its config, and `first` once pruned), in the stream's slot. */
  readonly meta: string;
  /** The stream's key (`ns:id`), for errors. */
  readonly key: string;
  readonly location: string;
  readonly api: string;
}

/**
 * Follows a Redis Stream with blocking `XREAD`s on a connection of its own, from just after
 * `fromVersion` (entry ids are `version-0`, so `XREAD … STREAMS name n-0` starts at `n + 1`),
 * delivering each action once, in order, until unsubscribed. A failed read is reported and
 * retried after a growing pause (at most 2 s); unsubscribing destroys the connection, which ends
 * a blocked read at once.
 *
 * @returns the function that stops it
 * @example
 * ```ts
 * const stop = followRedisStream(followed, 0, listener, undefined);
 * ```
 */
export const followRedisStream = (
  followed: FollowedStream,
  fromVersion: number,
  listener: StreamListener,
  onError: SubscribeOptions['onError'],
): Unsubscribe => {
  const { connection, name, meta, key, location, api } = followed;
  const blockMs = String(Math.max(1, Math.min(2_000, Math.floor(connection.timeoutMs / 2))));
  let stopped = false;
  let wake: (() => void) | undefined;
  const report = (error: unknown, entry?: StoredAction) => {
    try {
      onError?.(error, entry);
    } catch {
      // An onError that throws must not end the subscription either.
    }
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const corrupt = (version: number, problem: string) =>
    new EventCorruptError(api, key, version, location, [problem]);

  const route = { key: name };
  /**
   * Why the entry after `version - 1` is not `version`: the stream was pruned past it
   * (`EventPrunedError`, its meta's `first` is above `version`), or it is damaged.
   */
  const skipped = async (version: number, id: string | undefined): Promise<Error> => {
    let first: number | undefined;
    try {
      first = Number(redisText(await connection.send(['HGET', meta, 'first'], api, route)));
    } catch (error) {
      return error instanceof Error ? error : corrupt(version, String(error));
    }
    if (Number.isSafeInteger(first) && (first as number) > version) {
      return new EventPrunedError(api, key, version, first as number);
    }
    return corrupt(version, `entry id: expected ${version}-0, got ${String(id)}`);
  };
  /** Whether the stream still holds `json` at `version` (see the rollback check below). */
  const holds = async (version: number, json: string): Promise<boolean> => {
    const reply = await connection.send(
      ['XRANGE', name, `${version}-0`, `${version}-0`],
      api,
      route,
    );
    const entry: unknown = Array.isArray(reply) ? reply[0] : undefined;
    return Array.isArray(entry) && actionJsonOf(entry[1]) === json;
  };

  const loop = async (): Promise<void> => {
    let last = fromVersion;
    /** The stored JSON of the action delivered as `last` (none delivered yet: `undefined`). */
    let lastJson: string | undefined;
    let failures = 0;
    while (!stopped) {
      let reply: unknown;
      try {
        // After a lost connection (a failover, perhaps): the action delivered last must still be
        // there. A master that died before its replica had it takes it along, and the stream
        // goes on without it; delivering on would skip what takes its version.
        if (failures > 0 && lastJson !== undefined && !(await holds(last, lastJson))) {
          report(
            corrupt(
              last,
              `entry ${last}-0: no longer the action delivered as version ${last} (the stream was deleted, or a failover lost writes that the old master had not replicated); the subscription stopped`,
            ),
          );
          break;
        }
        reply = await connection.send(
          ['XREAD', 'COUNT', COUNT, 'BLOCK', blockMs, 'STREAMS', name, `${last}-0`],
          api,
          route,
        );
        failures = 0;
      } catch (error) {
        if (stopped) break;
        report(error);
        failures++;
        await pause(Math.min(50 * 2 ** failures, 2_000));
        continue;
      }
      for (const raw of entriesOf(reply, name)) {
        if (stopped) break;
        const id = Array.isArray(raw) ? redisText(raw[0]) : undefined;
        if (id !== `${last + 1}-0`) {
          report(await skipped(last + 1, id));
          stopped = true;
          break;
        }
        const version = last + 1;
        const json = actionJsonOf((raw as unknown[])[1]);
        let action;
        try {
          action = readActionJson(json, {
            key,
            version,
            location,
            api,
          });
        } catch (error) {
          report(error);
          stopped = true;
          break;
        }
        last = version;
        lastJson = typeof json === 'string' ? json : undefined;
        const entry: StoredAction = Object.freeze({ version, action });
        try {
          await listener(entry);
        } catch (error) {
          report(error, entry);
        }
      }
    }
    connection.destroy();
  };
  const done = loop();
  return async () => {
    stopped = true;
    wake?.();
    connection.destroy();
    await done;
  };
};

/**
 * Checks `subscribe`'s arguments past the id and the options' keys: `fromVersion` an integer
 * ≥ 0, `listener` and `onError` (when given) functions. Returns the `onError` to follow with: a
 * lost connection it reports names the stream, as the other methods' errors do.
 *
 * @throws MemoryArgumentError naming the argument
 * @example
 * ```ts
 * const onError = checkSubscription(api, 'thread-7', 0, listener, options?.onError);
 * ```
 */
export const checkSubscription = (
  api: string,
  streamId: string,
  fromVersion: unknown,
  listener: unknown,
  report: unknown,
): SubscribeOptions['onError'] => {
  if (typeof fromVersion !== 'number' || !Number.isSafeInteger(fromVersion) || fromVersion < 0) {
    throw new MemoryArgumentError(
      api,
      `fromVersion must be an integer ≥ 0 (0: from the first action), received ${describeValue(fromVersion)}`,
    );
  }
  if (typeof listener !== 'function') {
    throw new MemoryArgumentError(api, `listener must be a function, received ${typeof listener}`);
  }
  if (report !== undefined && typeof report !== 'function') {
    throw new MemoryArgumentError(api, 'options.onError must be a function');
  }
  if (report === undefined) return undefined;
  const onError = report as NonNullable<SubscribeOptions['onError']>;
  return (error, entry) => onError(withId(error, streamId), entry);
};
