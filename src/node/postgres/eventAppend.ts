import {
  type AppendResult,
  createMemory,
  EventConflictError,
  type MemoryConfig,
  type MemoryState,
  memoryReducer,
} from 'conversation-memory';
import {
  type CheckedAppend,
  checkSameConfig,
  isSessionExpired,
  encodeActionJson,
  encodeConfigJson,
  encodeSnapshotJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import type { PostgresConnection } from './connection';
import type { EventStatements } from './eventStatements';
import { headError, headProblem, readStreamHead, type StreamPlace } from './eventStreams';

/**
 * What an append needs from its store: the connection and statements, `snapshotEvery`, the TTL
 * and the clock, the channel its appends notify (with the stream's digest as payload), and the
 * state of a stream at a version (for the snapshots a batch reaches).
 *
 * @example
 * ```ts
 * const context: PostgresAppendContext = { connection, sql, snapshotEvery: 256, ttl: undefined, now, channel, digest, stateBefore, location };
 * ```
 */
export interface PostgresAppendContext {
  readonly connection: PostgresConnection;
  readonly sql: EventStatements;
  readonly snapshotEvery: number;
  readonly ttl: number | undefined;
  readonly now: () => number;
  readonly channel: string;
  readonly digest: (key: string) => string;
  readonly location: string;
  /**
   * The stream's id and config, and its state after `version` actions (checked as `load` checks
   * it); `undefined` when the stream is absent or not at that version.
   */
  readonly stateBefore: (
    key: string,
    version: number,
  ) => Promise<{ id: string; config: MemoryConfig; state: MemoryState } | undefined>;
}

/** Rounds of an append overtaken by another writer, or meeting a config spelt otherwise. */
const ROUNDS = 5;

/**
 * The snapshots a batch reaches (every `every` versions), computed from the state before it, and
 * the stream they were computed on (`null`: a stream this append creates).
 */
const snapshotsOf = async (
  context: PostgresAppendContext,
  checked: CheckedAppend,
  given: MemoryConfig | undefined,
): Promise<{ seen: string | null; versions: number[]; json: string[] }> => {
  const { key, expectedVersion: before, actions } = checked;
  const every = context.snapshotEvery;
  const none = { seen: null, versions: [], json: [] };
  if (Math.floor((before + actions.length) / every) === Math.floor(before / every)) return none;
  const found = await context.stateBefore(key, before);
  if (found === undefined && before > 0) return none; // the append will report the conflict
  const config = found?.config ?? given ?? createMemory().config;
  let state = found?.state ?? createMemory(config);
  const versions: number[] = [];
  const json: string[] = [];
  actions.forEach((action, i) => {
    state = memoryReducer(state, action);
    const version = before + i + 1;
    if (version % every === 0) {
      versions.push(version);
      json.push(encodeSnapshotJson(state, { stream: key, version, config }));
    }
  });
  return { seen: found?.id ?? null, versions, json };
};

/**
 * Appends a checked batch in one statement (see `eventStatements.append`): the version check under
 * the stream's row, the actions under the `(stream, version)` key, the snapshots the batch reaches
 * and the notification commit together or not at all. Only when the batch reaches a snapshot is
 * the stream read first (its state before the batch), and those snapshots are written only if the
 * stream is still the one read.
 *
 * @returns the new version
 * @throws EventConflictError (stale `expectedVersion`), EventCorruptError (a damaged stream),
 *   MemoryArgumentError (another config than the stream's)
 * @example
 * ```ts
 * await appendToStream(context, 'PostgresEventStore.append', checkAppend('s1', actions, { expectedVersion: 0 }), undefined);
 * ```
 */
export const appendToStream = async (
  context: PostgresAppendContext,
  api: string,
  checked: CheckedAppend,
  namespace: string | undefined,
): Promise<AppendResult> => {
  const { key, expectedVersion } = checked;
  const place: StreamPlace = { api, key, location: context.location };
  const given = checked.config === undefined ? undefined : createMemory(checked.config).config;
  const snapshots = await snapshotsOf(context, checked, given);
  const version = expectedVersion + checked.actions.length;
  let configCheck = given === undefined ? null : encodeConfigJson(given);
  for (let round = 0; round < ROUNDS; round++) {
    const now = context.now();
    const [row] = await context.connection.query(api, true, context.sql.append, [
      key,
      namespace ?? null,
      encodeConfigJson(given ?? createMemory().config),
      now,
      expectedVersion,
      version,
      checked.actions.map(encodeActionJson),
      configCheck,
      snapshots.seen,
      snapshots.versions,
      snapshots.json,
      context.channel,
      context.digest(key),
      context.ttl ?? null,
    ]);
    if (row !== undefined && row['written'] !== null) return Object.freeze({ version });
    if (row === undefined || row['id'] === null) {
      if (expectedVersion > 0) throw new EventConflictError(api, key, expectedVersion, 0);
      continue; // deleted since: try again
    }
    const read = readStreamHead(row);
    const updatedAt = 'head' in read ? read.head.updatedAt : undefined;
    if (updatedAt !== undefined && isSessionExpired(updatedAt, context.ttl, now)) {
      if (expectedVersion > 0) throw new EventConflictError(api, key, expectedVersion, 0);
      const values = [row['id'], now, context.ttl ?? null];
      await context.connection.query(api, true, context.sql.renew, values);
      continue;
    }
    if ('problem' in read) throw headError(read, place);
    const problem = headProblem(read.head);
    if (problem !== undefined) throw headError(problem, place);
    if (read.head.version !== expectedVersion) {
      throw new EventConflictError(api, key, expectedVersion, read.head.version);
    }
    const stored = read.head.configJson;
    if (given !== undefined && stored !== configCheck) {
      // Spelt otherwise: compare the decoded configs, then require that text.
      checkSameConfig(key, readConfigJson(stored, { ...place, version: 0 }), given, api);
      configCheck = typeof stored === 'string' ? stored : null;
    }
    // Otherwise overtaken between the statement's look and its write: try again.
  }
  throw new EventConflictError(api, key, expectedVersion, expectedVersion);
};
