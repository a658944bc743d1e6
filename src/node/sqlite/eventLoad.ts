import {
  EventCorruptError,
  EventPrunedError,
  type LoadedStream,
  type MemoryConfig,
  type MemoryState,
  type StoredAction,
} from 'conversation-memory';
import { applyStoredAction, checkAtVersion, readConfigJson } from 'conversation-memory/store-kit';
import { snapshotAtOrBelow } from './eventSnapshots';
import type { EventStatements } from './eventStatements';
import type { SqliteEventStreams } from './eventStreams';

/** Where a load starts: the stream, its config, the state at `from` and the wanted version. */
interface LoadStart {
  readonly id: number;
  readonly config: MemoryConfig;
  readonly from: number;
  readonly target: number;
  readonly state: MemoryState;
}

/** How many times a load starts again when a prune removed the actions it was about to read. */
const LOAD_ATTEMPTS = 3;

/** The start of a load, in one read snapshot: `null` for an absent (or expired) stream. */
const loadStart = (
  streams: SqliteEventStreams,
  sql: EventStatements,
  api: string,
  key: string,
  atVersion: number | undefined,
): LoadStart | null => {
  const head = streams.head(api, key);
  if (head === undefined) return null;
  const target = atVersion ?? head.version;
  checkAtVersion(key, target, head.version, api);
  // Below a prune, version 0 (the initial state) is gone too.
  if (head.first > 1) streams.checkNotPruned(api, key, head, target);
  // The snapshot it starts from may be above a gap: the actions below it are checked too.
  streams.checkWhole(api, key, head, target);
  const config = readConfigJson(head.config, streams.at(api, key, 0));
  const place = streams.place(api, key, head.id);
  const snapshot = snapshotAtOrBelow(sql, place, config, target);
  if (head.first > 1 && snapshot.version < head.first) {
    throw new EventCorruptError(api, key, head.first, place.location, [
      `stream: pruned before version ${head.first} but its snapshot there is missing or does not decode`,
    ]);
  }
  return { id: head.id, config, from: snapshot.version, target, state: snapshot.state };
};

/** One attempt; `{ pruned }` when a prune removed the actions it was reading (start again). */
const loadOnce = async (
  streams: SqliteEventStreams,
  sql: EventStatements,
  call: { readonly api: string; readonly key: string; readonly stillOpen: () => void },
  atVersion: number | undefined,
): Promise<LoadedStream | null | { readonly pruned: EventPrunedError }> => {
  const { api, key, stillOpen } = call;
  const start = await streams.read(() => loadStart(streams, sql, api, key, atVersion), stillOpen);
  if (start === null) return null;
  let { state } = start;
  const pages = streams.pages(api, key, start.id, start.from + 1, start.target, stillOpen);
  for (;;) {
    let next: IteratorResult<StoredAction, boolean>;
    try {
      next = await pages.next();
    } catch (error) {
      if (error instanceof EventPrunedError) return { pruned: error };
      throw error;
    }
    if (next.done === true) {
      // The stream was deleted while it was being read: it is absent now.
      return next.value ? { state, version: start.target } : null;
    }
    const { version, action } = next.value;
    state = applyStoredAction(state, action, streams.at(api, key, version));
  }
};

/**
 * The SQLite event store's `load`: the head, the latest sound snapshot at or below the version
 * (checked in one read snapshot: a version below a prune rejects with `EventPrunedError`, and a
 * pruned stream's snapshot at its first version must be there), then the actions after it, page
 * by page. A prune that removes those actions while they are read makes the load start again
 * (from the prune's snapshot), at most 3 times; then it rejects with that `EventPrunedError`.
 *
 * @param streams - the store's stream reads
 * @param sql - the store's prepared statements
 * @param call - the method (for errors), the stream's key and the call's `stillOpen`
 * @param atVersion - the version to load (`undefined`: the latest)
 * @returns the state and its version, or `null` for an absent or expired stream
 * @throws EventPrunedError below a pruned stream's first version; EventCorruptError for a damaged
 *   stream; MemoryArgumentError for a version past the stream's
 * @example
 * ```ts
 * const loaded = await loadStream(streams, sql, { api, key: 'u1:s1', stillOpen }, undefined);
 * ```
 */
export const loadStream = async (
  streams: SqliteEventStreams,
  sql: EventStatements,
  call: { readonly api: string; readonly key: string; readonly stillOpen: () => void },
  atVersion: number | undefined,
): Promise<LoadedStream | null> => {
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadOnce(streams, sql, call, atVersion);
    if (loaded === null || !('pruned' in loaded)) return loaded;
    if (attempt >= LOAD_ATTEMPTS) throw loaded.pruned;
  }
};
