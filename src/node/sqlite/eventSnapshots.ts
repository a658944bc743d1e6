import {
  createMemory,
  type MemoryAction,
  type MemoryConfig,
  type MemoryState,
  memoryReducer,
} from 'conversation-memory';
import {
  applyStoredAction,
  readActionJson,
  readSnapshotJson,
  encodeSnapshotJson,
  type RecordPlace,
} from 'conversation-memory/store-kit';
import { EVENT_PAGE, type EventStatements } from './eventStatements';
import { checkPage } from './eventStreamShape';

/**
 * A stream of the SQLite event store, for reading its records: its key, its never-reused id, the
 * database's location and the API reading it (for errors).
 *
 * @example
 * ```ts
 * const place: StreamPlace = { key: 'u1:s1', id: 7, location: 'sqlite:events.db', api: 'SqliteEventStore.load' };
 * ```
 */
export interface StreamPlace {
  readonly key: string;
  readonly id: number;
  readonly location: string;
  readonly api: string;
}

const recordAt = (place: StreamPlace, version: number): RecordPlace => ({
  key: place.key,
  version,
  location: place.location,
  api: place.api,
});

/**
 * The latest snapshot at or below `version` that decodes and is bound to this stream and its
 * version (see `readSnapshotJson`), else the initial state; call inside a transaction.
 *
 * @returns the state and the version it is the state after
 * @example
 * ```ts
 * const { state, version } = snapshotAtOrBelow(sql, place, config, 300); // from the snapshot at 256
 * ```
 */
export const snapshotAtOrBelow = (
  sql: EventStatements,
  place: StreamPlace,
  config: MemoryConfig,
  version: number,
): { readonly state: MemoryState; readonly version: number } => {
  let below = version;
  while (below > 0) {
    const row = sql.snapshotAtOrBelow.get(place.id, below);
    if (row === undefined || typeof row.version !== 'number') break;
    if (Number.isSafeInteger(row.version)) {
      const at = { stream: place.key, version: row.version };
      const state = readSnapshotJson(row.payload, config, at);
      if (state !== undefined) return { state, version: row.version };
    }
    below = Math.ceil(row.version) - 1;
  }
  return { state: createMemory(config), version: 0 };
};

/**
 * The state at `version` (a snapshot, then the actions after it, checked for gaps), inside a
 * transaction: what an append needs to write a snapshot.
 *
 * @throws EventCorruptError for an action that does not decode or replay, or a gap
 * @example
 * ```ts
 * const state = stateAt(sql, place, config, 12);
 * ```
 */
export const stateAt = (
  sql: EventStatements,
  place: StreamPlace,
  config: MemoryConfig,
  version: number,
): MemoryState => {
  const start = snapshotAtOrBelow(sql, place, config, version);
  let { state } = start;
  for (let from = start.version + 1; from <= version; from += EVENT_PAGE) {
    const want = Math.min(EVENT_PAGE, version - from + 1);
    const rows = sql.page.all(place.id, from, version, EVENT_PAGE);
    const { gap } = checkPage(rows, from, want, recordAt(place, from));
    if (gap !== undefined) throw gap;
    for (const { version: v, payload } of rows) {
      const at = recordAt(place, v as number);
      state = applyStoredAction(state, readActionJson(payload, at), at);
    }
  }
  return state;
};

/**
 * Writes the snapshots an append reaches (every `every` versions), inside its transaction, each
 * bound to the stream's key and its version. They are only an optimisation: when the state before
 * the batch cannot be rebuilt (a corrupt record, a gap), or the config cannot be read, or an action
 * cannot be applied, none is written and the append goes on (`load` reports the corruption).
 *
 * @param config - the stream's config (called only when a snapshot is due)
 * @param batch - the version before the batch, its actions and the distance between snapshots
 * @example
 * ```ts
 * writeSnapshots(sql, place, () => config, { before: 254, actions, every: 256 });
 * ```
 */
export const writeSnapshots = (
  sql: EventStatements,
  place: StreamPlace,
  config: () => MemoryConfig,
  batch: {
    readonly before: number;
    readonly actions: readonly MemoryAction[];
    readonly every: number;
  },
): void => {
  const { before, actions, every } = batch;
  if (Math.floor((before + actions.length) / every) === Math.floor(before / every)) return;
  try {
    const streamConfig = config();
    let state = stateAt(sql, place, streamConfig, before);
    actions.forEach((action, i) => {
      state = memoryReducer(state, action);
      const version = before + i + 1;
      if (version % every === 0) {
        const json = encodeSnapshotJson(state, {
          stream: place.key,
          version,
          config: streamConfig,
        });
        sql.insertSnapshot.run(place.id, version, json);
      }
    });
  } catch {
    // No snapshot this time: see above.
  }
};
