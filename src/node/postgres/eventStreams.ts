import {
  createMemory,
  EventCorruptError,
  type MemoryConfig,
  type MemoryState,
  type StoredAction,
} from 'conversation-memory';
import {
  applyStoredAction,
  describeValue,
  readActionJson,
  readConfigJson,
  readSnapshotJson,
  type RecordPlace,
} from 'conversation-memory/store-kit';
import type { PostgresRow, PostgresSend } from './connection';
import { EVENT_PAGE, type EventStatements } from './eventStatements';

/**
 * Reading event streams back: a stream's head (its row, checked), the shape of its actions
 * (`headProblem`), pages of actions checked to run on without a gap, and the state at a version
 * from the latest sound snapshot at or below it. Nothing read is trusted.
 */

/**
 * A stream's row, checked (`id` kept as the server's text, passed back as a parameter).
 *
 * @example
 * ```ts
 * const head: StreamHead = { id: '7', key: 's1', version: 3, createdAt: 1764500000, updatedAt: 1764500000, first: 1, configJson: '{}', damagedAt: undefined, maxVersion: 3 };
 * ```
 */
export interface StreamHead {
  readonly id: string;
  readonly key: string;
  readonly version: number;
  readonly createdAt: number;
  /** Its last append (Unix seconds, the store's clock); `undefined`: unknown (never expires). */
  readonly updatedAt: number | undefined;
  /** Its first version: 1, or `before` of its last prune (the actions below it are gone). */
  readonly first: number;
  readonly configJson: unknown;
  readonly damagedAt: number | undefined;
  readonly maxVersion: number | undefined;
}

const integerOf = (text: unknown): number | undefined => {
  if (typeof text !== 'string' || !/^-?\d+$/u.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
};

/**
 * A head row decoded; a problem when a column is not what the store writes.
 *
 * @example
 * ```ts
 * readStreamHead(row, place); // { head } or { at: 0, problem: 'stream: …' }
 * ```
 */
export const readStreamHead = (
  row: PostgresRow,
): { readonly head: StreamHead } | { readonly at: number; readonly problem: string } => {
  const version = integerOf(row['version']);
  const id = row['id'];
  const key = row['stream_key'];
  if (typeof id !== 'string' || typeof key !== 'string' || version === undefined || version < 0) {
    return {
      at: 0,
      problem: `stream: its row (event_streams) holds version ${describeValue(row['version'])}, not an integer ≥ 0`,
    };
  }
  const first = integerOf(row['first_version']);
  if (first === undefined || first < 1 || first > Math.max(version, 1)) {
    return {
      at: 0,
      problem: `stream: its row (event_streams) holds first_version ${describeValue(row['first_version'])}, not an integer from 1 to its version ${version}`,
    };
  }
  const updatedAt = row['updated_at'] === null ? Number.NaN : Number(row['updated_at']);
  const damaged = row['damaged_at'];
  const max = row['max_version'];
  const createdAt = Number(row['created_at']);
  return {
    head: {
      id,
      key,
      version,
      createdAt: Number.isFinite(createdAt) ? createdAt : Number.NaN,
      updatedAt: Number.isFinite(updatedAt) ? updatedAt : undefined,
      first,
      configJson: row['config_json'],
      damagedAt: damaged === null ? undefined : (integerOf(damaged) ?? 0),
      maxVersion: max === null ? undefined : (integerOf(max) ?? Number.MAX_SAFE_INTEGER),
    },
  };
};

/**
 * What is wrong with a stream's actions up to `target` (its version when omitted), from its head
 * alone: an action past its version, an action removed or moved by another program at or below
 * `target`, or a last action below its version. `undefined` when nothing shows.
 *
 * @example
 * ```ts
 * headProblem({ ...head, maxVersion: 12, version: 10 }); // { at: 12, problem: 'stream: holds an action at version 12, beyond …' }
 * ```
 */
export const headProblem = (
  head: StreamHead,
  target = head.version,
): { readonly at: number; readonly problem: string } | undefined => {
  const { version, maxVersion, damagedAt } = head;
  if (maxVersion !== undefined && maxVersion > version) {
    return {
      at: maxVersion,
      problem: `stream: holds an action at version ${maxVersion}, beyond its version ${version} (a row its appends did not write)`,
    };
  }
  if (damagedAt !== undefined && damagedAt <= target) {
    return {
      at: damagedAt,
      problem: `stream: the action at version ${damagedAt} was removed or moved by another program (actions must run from 1 to ${version})`,
    };
  }
  if ((maxVersion ?? 0) < version) {
    const first = (maxVersion ?? 0) + 1;
    return {
      at: first,
      problem: `stream: at version ${version} but its last action is at version ${maxVersion ?? 'none'} (actions ${first} to ${version} are missing)`,
    };
  }
  return undefined;
};

/**
 * Where records of a stream are, for errors (the kit's `RecordPlace` without the version).
 *
 * @example
 * ```ts
 * const place: StreamPlace = { api: 'PostgresEventStore.load', key: 's1', location: 'postgres:conversation_memory.event_actions' };
 * ```
 */
export type StreamPlace = Omit<RecordPlace, 'version'>;

/** The corrupt-stream error of a head's problem. */
export const headError = (
  problem: { readonly at: number; readonly problem: string },
  place: StreamPlace,
): EventCorruptError =>
  new EventCorruptError(place.api, place.key, problem.at, place.location, [problem.problem]);

/**
 * The actions of stream `id` from `from` to `to`, page by page, each decoded and checked to
 * follow the previous one (a missing version is an `EventCorruptError`).
 *
 * @example
 * ```ts
 * for await (const entry of actionPages(send, sql, head.id, 1, head.version, place)) use(entry);
 * ```
 */
export async function* actionPages(
  send: PostgresSend,
  sql: EventStatements,
  id: string,
  from: number,
  to: number,
  place: StreamPlace,
): AsyncGenerator<StoredAction> {
  for (let next = from; next <= to;) {
    const rows = await send(sql.page, [id, next, to, EVENT_PAGE]);
    for (const row of rows) {
      const version = integerOf(row['version']);
      if (version !== next) {
        throw new EventCorruptError(place.api, place.key, next, place.location, [
          `stream: no action at version ${next}, below the stream's version (the next is at ${describeValue(row['version'])})`,
        ]);
      }
      const action = readActionJson(row['action_json'], { ...place, version });
      yield Object.freeze({ version, action });
      next++;
    }
    if (rows.length === 0 && next <= to) {
      throw new EventCorruptError(place.api, place.key, next, place.location, [
        `stream: no action at version ${next}, below the stream's version`,
      ]);
    }
  }
}

/**
 * The state of a stream after `target` actions: from the latest snapshot at or below it that
 * decodes and is bound to this stream and version (others are passed over), then its actions. A
 * pruned stream starts from a snapshot at its first version or later (the prune's), never from
 * nothing: without one it is an `EventCorruptError`.
 *
 * @example
 * ```ts
 * const state = await stateAt(send, sql, head, config, 10, place);
 * ```
 */
export const stateAt = async (
  send: PostgresSend,
  sql: EventStatements,
  head: StreamHead,
  config: MemoryConfig,
  target: number,
  place: StreamPlace,
): Promise<MemoryState> => {
  let state = createMemory(config);
  let from = 0;
  for (const row of await send(sql.snapshots, [head.id, target])) {
    const version = integerOf(row['version']);
    if (version === undefined || version < head.first || version > target) continue;
    const found = readSnapshotJson(row['snapshot_json'], config, {
      stream: head.key,
      version,
      config,
    });
    if (found !== undefined) {
      state = found;
      from = version;
      break;
    }
  }
  if (from === 0 && head.first > 1) {
    throw new EventCorruptError(place.api, place.key, head.first, place.location, [
      `stream: pruned before version ${head.first}, and no snapshot from there to version ${target} decodes (event_snapshots)`,
    ]);
  }
  for await (const { version, action } of actionPages(
    send,
    sql,
    head.id,
    from + 1,
    target,
    place,
  )) {
    state = applyStoredAction(state, action, { ...place, version });
  }
  return state;
};

/**
 * The stream's config, decoded (a config that does not decode is an `EventCorruptError` at
 * version 0).
 *
 * @example
 * ```ts
 * const config = configOf(head, place);
 * ```
 */
export const configOf = (head: StreamHead, place: StreamPlace): MemoryConfig =>
  readConfigJson(head.configJson, { ...place, version: 0 });
