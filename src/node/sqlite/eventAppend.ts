import { createMemory, EventConflictError, type MemoryConfig } from 'conversation-memory';
import {
  type CheckedAppend,
  checkSameConfig,
  encodeActionJson,
  encodeConfigJson,
  readConfigJson,
} from 'conversation-memory/store-kit';
import { writeSnapshots } from './eventSnapshots';
import type { EventStatements } from './eventStatements';
import type { SqliteEventStreams } from './eventStreams';

/**
 * One append's rows (call it inside a `BEGIN IMMEDIATE` transaction): the version check against
 * the stream's head (a damaged stream is reported, never appended to), the stream's row when the
 * append creates it (else the config check), one row per action, the new version, and the
 * snapshots the append reaches.
 *
 * @param streams - the store's stream reads
 * @param sql - the store's prepared statements
 * @param api - the calling method, for errors
 * @param checked - the append, checked (`checkAppend`)
 * @param snapshotEvery - the distance between snapshots
 * @returns the stream's new version
 * @throws EventConflictError at another version; EventCorruptError for a damaged stream;
 *   MemoryArgumentError for another config
 * @example
 * ```ts
 * const write = db.transaction(() => appendRows(streams, sql, api, checked, 256));
 * const version = write.immediate();
 * ```
 */
export const appendRows = (
  streams: SqliteEventStreams,
  sql: EventStatements,
  api: string,
  checked: CheckedAppend,
  snapshotEvery: number,
): number => {
  const { key, expectedVersion } = checked;
  // A damaged stream is reported, never appended to: a gap anywhere, even below a snapshot.
  const head = streams.head(api, key);
  if (head !== undefined) streams.checkWhole(api, key, head, head.version);
  const actual = head?.version ?? 0;
  if (actual !== expectedVersion) {
    throw new EventConflictError(api, key, expectedVersion, actual);
  }
  let config = checked.config;
  let id: number;
  if (head === undefined) {
    config ??= createMemory().config;
    id = Number(
      sql.insertStream.run(key, encodeConfigJson(config), Date.now() / 1000).lastInsertRowid,
    );
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
  sql.setVersion.run(version, id);
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
