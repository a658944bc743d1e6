import { type MemoryState, type SavedSession, SessionConflictError } from 'conversation-memory';
import { checkExpectedRevision, type SessionKey } from 'conversation-memory/store-kit';
import type { SessionDatabase } from './sessionDatabase';
import { indexSession, moveIndex } from './sessionFtsIndex';
import { referenceRowKey } from './sessionReferenceRows';
import { readRowMeta } from './sessionRow';

/**
 * The store's clock and TTL, as a save reads them.
 *
 * @example
 * ```ts
 * const clock: SessionClock = { now: () => Date.now() / 1000, expired: () => false };
 * ```
 */
export interface SessionClock {
  /** The time now, in Unix seconds (the store's `now`). */
  readonly now: () => number;
  /** Whether a row updated at `updatedAt` has expired at `now`. */
  readonly expired: (updatedAt: unknown, now: number) => boolean;
}

/**
 * The revision check, the write and the re-index, in one `BEGIN IMMEDIATE` transaction. A row
 * the reference wrote for the pair (when ours is absent) is its current session, and moves to
 * the storage key (its search index too). A save that waited `lockTimeoutMs` for the lock
 * rejects with `SessionConflictError` (nothing written).
 *
 * @example
 * ```ts
 * const saved = await saveSessionRow(database, clock, 'SqliteSessionStore.save', where, encoded, 3, stillOpen);
 * saved.revision; // 4
 * ```
 */
export const saveSessionRow = async (
  database: SessionDatabase,
  clock: SessionClock,
  api: string,
  where: SessionKey,
  encoded: { json: string; state: MemoryState },
  expected: number | undefined,
  stillOpen: () => void,
): Promise<SavedSession> => {
  const { sql } = database;
  const { key } = where;
  const revision = await database.write(
    () => {
      const now = clock.now();
      const source = database.rowKeyOf(where) ?? key;
      const current = database.current(source, (updatedAt) => clock.expired(updatedAt, now));
      const live = current !== undefined && 'revision' in current ? current : undefined;
      checkExpectedRevision(key, expected, live?.revision ?? 0, api);
      // A row that does not decode is kept for inspection before it is replaced.
      if (current !== undefined && 'problems' in current) {
        sql.moveAside.run(now, current.problems.join('\n'), source);
      }
      const next = (live?.revision ?? 0) + 1;
      const { json, state } = encoded;
      sql.upsert.run(key, json, state.messages.length, live?.createdAt ?? now, now, next);
      if (source !== key) {
        sql.deleteRow.run(source);
        if (sql.fts !== undefined) moveIndex(sql.fts, source, key);
        database.known.delete(source);
      }
      if (sql.fts !== undefined) indexSession(sql.fts, key, state.messages, now);
      database.known.add(key);
      return next;
    },
    (busy) => gaveUp(database, clock, api, where, expected, busy),
    stillOpen,
  );
  return Object.freeze({ revision });
};

/**
 * A save that could not get the write lock in time: a conflict (nothing was written), with the
 * revision found outside the lock (WAL readers need none) and the busy error as its `cause`.
 */
const gaveUp = (
  database: SessionDatabase,
  clock: SessionClock,
  api: string,
  where: SessionKey,
  expected: number | undefined,
  busy: unknown,
): never => {
  let actual = 0;
  try {
    const { selectMeta } = database.sql;
    const legacy = referenceRowKey(where);
    const row =
      selectMeta.get(where.key) ?? (legacy === undefined ? undefined : selectMeta.get(legacy));
    if (row !== undefined && !clock.expired(row.updated_at, clock.now())) {
      const meta = readRowMeta(row);
      if ('meta' in meta) actual = meta.meta.revision;
    }
  } catch {
    // Unreadable as well: report no revision.
  }
  throw new SessionConflictError(
    api,
    where.key,
    expected ?? actual,
    actual,
    "another writer kept the database locked for longer than the store's lockTimeoutMs",
    { cause: busy },
  );
};
