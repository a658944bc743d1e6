import { createMemory, EventConflictError, type MemoryConfig } from 'conversation-memory';
import {
  type CheckedAppend,
  checkSameConfig,
  encodeActionJson,
  encodeConfigJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import { retireStream } from './eventRetention';
import type { EventRetentionStatements } from './eventRetentionStatements';
import { writeSnapshots } from './eventSnapshots';
import type { EventStatements } from './eventStatements';
import { type SqliteEventStreams, streamExpired } from './eventStreams';

/**
 * One append's rows (call it inside a `BEGIN IMMEDIATE` transaction): the version check against
 * the stream's head (a damaged stream is reported, never appended to; an expired one is at
 * version 0, and an append expecting 0 retires it, so the new stream under its key has a new id
 * and reaches none of its rows), the stream's row when the append creates it (else the config
 * check), one row per action, the new version and the time of this append (the TTL runs from
 * it), and the snapshots the append reaches.
 *
 * @param streams - the store's stream reads
 * @param sql - the store's prepared statements
 * @param retention - the store's retention statements
 * @param api - the calling method, for errors
 * @param checked - the append, checked (`checkAppend`)
 * @param snapshotEvery - the distance between snapshots
 * @returns the stream's new version
 * @throws EventConflictError at another version; EventCorruptError for a damaged stream;
 *   MemoryArgumentError for another config
 * @example
 * ```ts
 * const write = db.transaction(() => appendRows(streams, sql, retention, api, checked, 256));
 * const version = write.immediate();
 * ```
 */
export const appendRows = (
  streams: SqliteEventStreams,
  sql: EventStatements,
  retention: EventRetentionStatements,
  api: string,
  checked: CheckedAppend,
  snapshotEvery: number,
): number => {
  const { key, expectedVersion } = checked;
  const now = streams.expiry.now();
  const stamp = retention.stampByKey.get(key);
  if (stamp !== undefined && streamExpired(stamp.updated_at, streams.expiry, now)) {
    if (expectedVersion !== 0) throw new EventConflictError(api, key, expectedVersion, 0);
    retireStream(retention, stamp.id);
  }
  // A damaged stream is reported, never appended to: a gap anywhere, even below a snapshot.
  const head = streams.head(api, key, now);
  if (head !== undefined) streams.checkWhole(api, key, head, head.version);
  const actual = head?.version ?? 0;
  if (actual !== expectedVersion) {
    throw new EventConflictError(api, key, expectedVersion, actual);
  }
  let config = checked.config;
  let id: number;
  if (head === undefined) {
    config ??= createMemory().config;
    id = Number(sql.insertStream.run(key, encodeConfigJson(config), now, now).lastInsertRowid);
  } else {
    id = head.id;
    if (config !== undefined) {
      checkSameConfig(key, readConfigJson(head.config, streams.at(api, key, 0)), config, api);
    }
  }
  checked.actions.forEach((action, i) => {
    sql.insertAction.run(id, actual + i + 1, encodeActionJson(action));
  });
  const version = actual + checked.actions.length;
  sql.setVersion.run(version, now, id);
  // Snapshots are an optimisation: a config that does not decode means none this time.
  const snapshotConfig = (): MemoryConfig =>
    config ??
    (head === undefined
      ? createMemory().config
      : readConfigJson(head.config, streams.at(api, key, 0)));
  writeSnapshots(sql, streams.place(api, key, id), snapshotConfig, {
    before: actual,
    actions: checked.actions,
    every: snapshotEvery,
  });
  return version;
};
