import { createMemory } from '../../core/createMemory';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { readOptionFields } from '../../internal/readOptionFields';
import { unreadable } from '../../internal/unreadable';
import { type EventLog, logActions, logSnapshotEveryOf, seek } from '../../log/eventLog';
import { logBuilder } from '../../log/logBuilder';
import { readLog } from '../../log/readLog';
import type { EventStore, StreamOptions } from './types';

/**
 * Options of {@link exportEventLog}.
 *
 * @example
 * ```ts
 * const options: ExportEventLogOptions = { namespace: 'user-42', snapshotEvery: 64, toVersion: 40 };
 * ```
 */
export interface ExportEventLogOptions extends StreamOptions {
  /** The log's `snapshotEvery` (default 256). */
  readonly snapshotEvery?: number | undefined;
  /** The last version to take (default: the stream's version when the read starts). */
  readonly toVersion?: number | undefined;
}

/**
 * Options of {@link importEventLog}.
 *
 * @example
 * ```ts
 * const options: ImportEventLogOptions = { namespace: 'user-42', batchSize: 500 };
 * ```
 */
export interface ImportEventLogOptions extends StreamOptions {
  /** Actions per append (default 256). */
  readonly batchSize?: number | undefined;
}

const DEFAULT_BATCH = 256;

type StoreMethod = 'load' | 'read' | 'append';

/** The store's methods `names`, each read once; a store without them is refused as ours. */
const storeMethods = <K extends StoreMethod>(
  store: unknown,
  names: readonly K[],
  api: string,
): Pick<EventStore, K> => {
  const methods: Partial<Record<StoreMethod, unknown>> = {};
  for (const name of names) {
    let method: unknown;
    try {
      method =
        typeof store === 'object' && store !== null
          ? (store as Record<string, unknown>)[name]
          : undefined;
    } catch (error) {
      throw unreadable(error, MemoryArgumentError, api, `store.${name}`);
    }
    if (typeof method !== 'function') {
      throw new MemoryArgumentError(
        api,
        `store must be an event store (with ${names.join(' and ')} methods), received ${describeValue(store)}`,
      );
    }
    methods[name] = method;
  }
  return methods as Pick<EventStore, K>;
};

/**
 * Reads a stored stream into an event log (its config from the stream, its actions in order), so
 * `timeline`, `seek`, `fork` and the inspector work on a stored conversation. The stream is read
 * page by page; the log holds every action (and a state every `snapshotEvery`).
 *
 * @param store - the event store
 * @param streamId - the stream
 * @param options - `namespace`, `snapshotEvery` of the log, `toVersion`
 * @returns the log, or `null` for an absent stream
 * @throws what the store throws (`SessionIdError`, `EventCorruptError`, …); MemoryArgumentError
 *   for a bad `snapshotEvery`, a `store` without `load` and `read`, or a stored value that is not
 *   a memory action
 * @example
 * ```ts
 * const log = await exportEventLog(store, 'thread-7');
 * if (log) timeline(log).forEach(({ step, action }) => console.log(step, action.type));
 * ```
 */
export const exportEventLog = async (
  store: EventStore,
  streamId: string,
  options: ExportEventLogOptions = {},
): Promise<EventLog | null> => {
  const api = 'exportEventLog';
  const { load, read } = storeMethods(store, ['load', 'read'], api);
  const given = readOptionFields(options, ['namespace', 'snapshotEvery', 'toVersion'], api, {
    example: "{ namespace: 'user-42' }",
  });
  const { namespace, toVersion } = given as ExportEventLogOptions;
  const snapshotEvery = logSnapshotEveryOf(given.snapshotEvery, api);
  // The state at version 0 is the stream's initial state: createMemory(its config).
  const start = await load.call(store, streamId, { namespace, atVersion: 0 });
  if (start === null) return null;
  // One pass over the stream, each action recorded as appendAction records it.
  const log = logBuilder(start.state, snapshotEvery, api);
  for await (const { action } of read.call(store, streamId, { namespace, toVersion })) {
    log.push(action);
  }
  return log.finish();
};

/**
 * Writes an event log into a new stream: created with the log's config (`expectedVersion: 0`, so
 * an existing stream is never touched: `EventConflictError`), its actions appended in batches of
 * `batchSize`, each with the expected version. Loading the stream then gives the log's state.
 *
 * The batches are separate appends: an import that fails part way leaves the stream holding the
 * log's first actions (its version says how many); delete it and import again.
 *
 * @param store - the event store
 * @param streamId - the new stream
 * @param log - an event log starting from `createMemory(config)` (as `createEventLog` makes it)
 * @param options - `namespace`, `batchSize` (default 256)
 * @returns the stream's version (the log's length)
 * @throws EventConflictError when the stream exists; MemoryArgumentError for a `log` that is not
 *   an event log or does not start from an empty memory, a `store` without `append`, or a bad
 *   `batchSize`
 * @example
 * ```ts
 * // Fork a stored conversation at step 12 into a new stream.
 * const log = await exportEventLog(store, 'thread-7');
 * if (log) await importEventLog(store, 'thread-7-what-if', fork(log, 12));
 * ```
 */
export const importEventLog = async (
  store: EventStore,
  streamId: string,
  log: EventLog,
  options: ImportEventLogOptions = {},
): Promise<{ readonly version: number }> => {
  const api = 'importEventLog';
  const { append } = storeMethods(store, ['append'], api);
  const checked = readLog(log, api);
  const given = readOptionFields(options, ['namespace', 'batchSize'], api, {
    example: "{ namespace: 'user-42', batchSize: 500 }",
  });
  const { namespace } = given as ImportEventLogOptions;
  const batchSize = (given.batchSize ?? DEFAULT_BATCH) as number;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new MemoryArgumentError(
      'importEventLog',
      `options.batchSize must be an integer ≥ 1, received ${describeValue(batchSize)}`,
    );
  }
  const initial = seek(checked, 0);
  const { config } = initial;
  // A stream replays from createMemory(config): a log that starts anywhere else cannot be one.
  const empty = createMemory(config);
  if (
    initial.messages.length !== 0 ||
    initial.nextPosition !== empty.nextPosition ||
    initial.summary !== null ||
    initial.pendingMessages.length !== 0 ||
    initial.summaryCoverage.length !== 0
  ) {
    throw new MemoryArgumentError(
      'importEventLog',
      'the log does not start from an empty memory (createMemory(config)), so a stream of its actions would not replay to its state; nothing was written',
    );
  }
  const actions = logActions(checked);
  let { version } = await append.call(store, streamId, actions.slice(0, batchSize), {
    namespace,
    expectedVersion: 0,
    config,
  });
  for (let from = batchSize; from < actions.length; from += batchSize) {
    ({ version } = await append.call(store, streamId, actions.slice(from, from + batchSize), {
      namespace,
      expectedVersion: version,
    }));
  }
  return Object.freeze({ version });
};
