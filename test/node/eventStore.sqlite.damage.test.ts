import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  encodeEnvelope,
  type EventCorruptError,
  type MemoryAction,
  memoryActions,
  replay,
  seek,
} from 'conversation-memory';
import { SqliteEventStore } from 'conversation-memory/node';
import { CONFIG, collect } from '../stores/storeSamples';
import { rejection, user } from '../helpers';
import { tempDatabasePaths, withDatabaseFile } from '../support/sqliteFiles';

/**
 * A SQLite event stream damaged by hand: every shape of damage is reported with
 * `EventCorruptError` at the version its kind names (see `streamShapeOf`), the stores never
 * return a partial state or `null` for a stream that is there, and no append builds on a damaged
 * stream.
 */

const freshPath = tempDatabasePaths('cm-events-damage-');

const added = (text: string): MemoryAction => memoryActions.messageAdded(user(text));
const logOf = (actions: readonly MemoryAction[]) =>
  actions.reduce(appendAction, createEventLog(CONFIG));

const STREAM_ID = (db: Database.Database, key: string): number =>
  db
    .prepare<[string], number>('SELECT id FROM event_streams WHERE stream = ?')
    .pluck()
    .get(key) as number;

const versionsOf = (file: string, key: string): unknown[] =>
  withDatabaseFile(file, (db) =>
    db
      .prepare('SELECT version FROM event_actions WHERE stream = ? ORDER BY version')
      .pluck()
      .all(STREAM_ID(db, key)),
  );

/** What a store must report for a stream at `version` whose actions are at `rows`. */
const expectedDamage = (
  rows: readonly number[],
  version: number,
): { kind: 'sound' } | { kind: 'head' | 'gap'; at: number } => {
  if (rows.length === 0) return version === 0 ? { kind: 'sound' } : { kind: 'head', at: 1 };
  const max = Math.max(...rows);
  const min = Math.min(...rows);
  if (max > version) return { kind: 'head', at: max };
  if (max < version) return { kind: 'head', at: max + 1 };
  if (min < 1) return { kind: 'head', at: min };
  for (let v = 1; v <= version; v++) if (!rows.includes(v)) return { kind: 'gap', at: v };
  return { kind: 'sound' };
};

describe('SqliteEventStore: damaged streams', () => {
  it('property: rows deleted or added anywhere are reported at the version their kind names; a sound stream loads; nothing is ever partial or null', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 1_000 });
    let run = 0;
    const kinds = { sound: 0, gap: 0, head: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 10 }),
          fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { maxLength: 3 }),
          fc.uniqueArray(fc.integer({ min: -2, max: 3 }), { maxLength: 2 }),
          async (n, deleted, offsets) => {
            const key = `p${run++}`;
            const actions = Array.from({ length: n }, (_, i) => added(`${key}-${i}`));
            await store.append(key, actions, { expectedVersion: 0, config: CONFIG });
            // Added rows: at 0 or below, or past the end.
            const inserted = offsets.map((o) => (o <= 0 ? o : n + o));
            withDatabaseFile(file, (db) => {
              const id = STREAM_ID(db, key);
              for (const v of deleted) {
                db.prepare('DELETE FROM event_actions WHERE stream = ? AND version = ?').run(id, v);
              }
              for (const v of inserted) {
                db.prepare(
                  'INSERT OR REPLACE INTO event_actions (stream, version, action) VALUES (?, ?, ?)',
                ).run(id, v, JSON.stringify(added('extra')));
              }
            });
            const rows = versionsOf(file, key) as number[];
            const expected = expectedDamage(rows, n);
            kinds[expected.kind]++;

            const seen: number[] = [];
            const read = await rejection(
              (async () => {
                for await (const entry of store.read(key)) seen.push(entry.version);
                throw new Error('read did not reject');
              })(),
            );
            const loaded: unknown = await store.load(key).catch((error: unknown) => error);
            const listed = (await store.streams()).find((info) => info.streamId === key);
            if (expected.kind === 'sound') {
              expect((read as Error).message).toBe('read did not reject');
              expect(seen).toEqual(actions.map((_, i) => i + 1));
              expect(loaded).toEqual({ state: replay(logOf(actions)), version: n });
              expect(listed?.version).toBe(n);
              return;
            }
            const corrupt = { code: 'CM_EVENT_CORRUPT', streamId: key, version: expected.at };
            expect(read).toMatchObject(corrupt);
            expect(loaded).toMatchObject(corrupt);
            expect((read as EventCorruptError).problems[0]).toMatch(/^stream: /);
            if (expected.kind === 'gap') {
              // Found while paging: what came before the gap was read; the head is sound.
              expect(seen).toEqual(Array.from({ length: expected.at - 1 }, (_, i) => i + 1));
              expect(listed?.version).toBe(n);
              // No append builds on it.
              expect(
                await rejection(store.append(key, [added('more')], { expectedVersion: n })),
              ).toMatchObject(corrupt);
              expect(versionsOf(file, key)).toEqual(rows);
            } else {
              // Found at the head: nothing is read, nothing listed, nothing appended.
              expect(seen).toEqual([]);
              expect(listed).toBeUndefined();
              expect(
                await rejection(store.append(key, [added('more')], { expectedVersion: n })),
              ).toMatchObject(corrupt);
              expect(versionsOf(file, key)).toEqual(rows);
            }
          },
        ),
        { numRuns: 60 },
      );
      // Every kind was met (the property is not about sound streams only).
      expect(Math.min(kinds.sound, kinds.gap, kinds.head)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('names each damage: a missing action, an odd version, a damaged version column', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 1_000 });
    const five = [1, 2, 3, 4, 5].map((i) => added(`m${i}`));
    for (const key of ['gap', 'half', 'text', 'column', 'zero', 'end']) {
      await store.append(key, five, { expectedVersion: 0, config: CONFIG });
    }
    withDatabaseFile(file, (db) => {
      const run = (sql: string, key: string) => db.prepare(sql).run(STREAM_ID(db, key));
      run('DELETE FROM event_actions WHERE stream = ? AND version = 3', 'gap');
      run(`INSERT INTO event_actions VALUES (?, 2.5, '{}')`, 'half');
      run(`INSERT INTO event_actions VALUES (?, 'x', '{}')`, 'text');
      run(`UPDATE event_streams SET version = 'ten' WHERE id = ?`, 'column');
      run(`INSERT INTO event_actions VALUES (?, 0, '{}')`, 'zero');
      run('DELETE FROM event_actions WHERE stream = ? AND version >= 4', 'end');
    });
    const problem = async (key: string) => {
      const error = (await rejection(store.load(key))) as EventCorruptError;
      expect(error).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: key });
      return [error.version, error.problems];
    };
    expect(await problem('gap')).toEqual([
      3,
      ['stream: the action after version 2 is stored at version 4, not 3'],
    ]);
    expect(await problem('half')).toEqual([
      3,
      ['stream: the action after version 2 is stored at version 2.5, not 3'],
    ]);
    expect(await problem('text')).toEqual([
      0,
      ['stream: holds an action at version "x", not an integer'],
    ]);
    expect(await problem('column')).toEqual([
      0,
      ['stream: its version (event_streams.version) is "ten", not an integer ≥ 0'],
    ]);
    expect(await problem('zero')).toEqual([
      0,
      ['stream: holds an action at version 0; versions are integers from 1'],
    ]);
    expect(await problem('end')).toEqual([
      4,
      ['stream: at version 5 but its last action is at version 3 (actions 4 to 5 are missing)'],
    ]);
    // A load that stops before the gap reads only sound actions (and may append nothing).
    expect(await store.load('gap', { atVersion: 2 })).toEqual({
      state: seek(logOf(five), 2),
      version: 2,
    });
    await store.close();
  });

  it('a gap anywhere, even below the snapshot a load starts from: append and load reject at it, writing nothing; a load below it still works', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    const actions = Array.from({ length: 10 }, (_, i) => added(`m${i}`));
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    const before = withDatabaseFile(file, (db) => ({
      snapshots: db.prepare('SELECT count(*) FROM event_snapshots').pluck().get(),
      version: db.prepare("SELECT version FROM event_streams WHERE stream = 's1'").pluck().get(),
    }));
    expect(before).toEqual({ snapshots: 2, version: 10 });
    // A row deleted (by another program) below the snapshot at 8, and one moved away.
    withDatabaseFile(file, (db) => {
      const id = STREAM_ID(db, 's1');
      db.prepare('DELETE FROM event_actions WHERE stream = ? AND version = 6').run(id);
      db.prepare('UPDATE event_actions SET version = 100 WHERE stream = ? AND version = 2').run(id);
      db.prepare('UPDATE event_actions SET version = 2 WHERE stream = ? AND version = 100').run(id);
    });
    // The move was undone: the first gap is at 6.
    const atGap = { code: 'CM_EVENT_CORRUPT', streamId: 's1', version: 6 };
    for (const atVersion of [undefined, 10, 8, 6]) {
      const error = (await rejection(store.load('s1', { atVersion }))) as EventCorruptError;
      expect(error).toMatchObject(atGap);
      expect(error.problems).toEqual([
        atVersion === 6
          ? "stream: no action at version 6, below the stream's version"
          : 'stream: the action after version 5 is stored at version 7, not 6',
      ]);
    }
    for (const expectedVersion of [10, 4]) {
      expect(
        await rejection(store.append('s1', [added('x'), added('y')], { expectedVersion })),
      ).toMatchObject(atGap);
    }
    expect(await rejection(collect(store.read('s1')))).toMatchObject(atGap);
    // Nothing was written: no action, no snapshot, the same version.
    expect(versionsOf(file, 's1')).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10]);
    expect(
      withDatabaseFile(file, (db) => ({
        snapshots: db.prepare('SELECT count(*) FROM event_snapshots').pluck().get(),
        version: db.prepare("SELECT version FROM event_streams WHERE stream = 's1'").pluck().get(),
      })),
    ).toEqual(before);
    // Below the gap, the stream is whole.
    expect(await store.load('s1', { atVersion: 5 })).toEqual({
      state: seek(logOf(actions), 5),
      version: 5,
    });
    // The row put back: the stream is whole again, loads, and takes appends.
    withDatabaseFile(file, (db) =>
      db
        .prepare('INSERT INTO event_actions (stream, version, action) VALUES (?, 6, ?)')
        .run(STREAM_ID(db, 's1'), JSON.stringify(actions[5])),
    );
    expect(await store.load('s1')).toEqual({ state: replay(logOf(actions)), version: 10 });
    expect(await store.append('s1', [added('x')], { expectedVersion: 10 })).toEqual({
      version: 11,
    });
    await store.close();
  });

  it('the store records where a gap may be when an action is removed; an append that finds the stream whole clears it; a stream deleted by the store and created again is whole', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    const actions = Array.from({ length: 6 }, (_, i) => added(`m${i}`));
    const gapFrom = (key: string): unknown =>
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT gap_from FROM event_streams WHERE stream = ?').pluck().get(key),
      );
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    expect(gapFrom('s1')).toBeNull();
    withDatabaseFile(file, (db) => {
      const id = STREAM_ID(db, 's1');
      const row = db
        .prepare<[number], { action: string }>(
          'SELECT action FROM event_actions WHERE stream = ? AND version = 3',
        )
        .get(id);
      db.prepare('DELETE FROM event_actions WHERE stream = ? AND version IN (3, 5)').run(id);
      db.prepare('INSERT INTO event_actions VALUES (?, 3, ?)').run(id, row?.action);
    });
    expect(gapFrom('s1')).toBe(3);
    expect(await rejection(store.load('s1'))).toMatchObject({ version: 5 });
    withDatabaseFile(file, (db) =>
      db
        .prepare('INSERT INTO event_actions VALUES (?, 5, ?)')
        .run(STREAM_ID(db, 's1'), JSON.stringify(actions[4])),
    );
    expect(await store.append('s1', [], { expectedVersion: 6 })).toEqual({ version: 6 });
    expect(gapFrom('s1')).toBeNull();
    // The store's own delete: the stream is gone, and created again it is whole.
    expect(await store.delete('s1')).toBe(true);
    expect(await store.load('s1')).toBeNull();
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    expect(gapFrom('s1')).toBeNull();
    expect(await store.load('s1')).toEqual({ state: replay(logOf(actions)), version: 6 });
    await store.close();
  });

  it('a file whose actions had a gap before the store recorded gaps: opening it records the gap, so load and append see it', async () => {
    const file = freshPath();
    const first = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    const actions = Array.from({ length: 10 }, (_, i) => added(`m${i}`));
    await first.append('gap', actions, { expectedVersion: 0, config: CONFIG });
    await first.append('whole', actions, { expectedVersion: 0, config: CONFIG });
    await first.close();
    // The file as an earlier version left it: no triggers, no gap_from; then a row deleted.
    withDatabaseFile(file, (db) => {
      db.exec('DROP TRIGGER event_actions_deleted');
      db.exec('DROP TRIGGER event_actions_moved');
      db.exec('ALTER TABLE event_streams DROP COLUMN gap_from');
      db.prepare('DELETE FROM event_actions WHERE stream = ? AND version = 3').run(
        STREAM_ID(db, 'gap'),
      );
    });
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    expect(await rejection(store.load('gap'))).toMatchObject({
      code: 'CM_EVENT_CORRUPT',
      version: 3,
    });
    expect(
      await rejection(store.append('gap', [added('x')], { expectedVersion: 10 })),
    ).toMatchObject({ code: 'CM_EVENT_CORRUPT', version: 3 });
    expect(await store.load('whole')).toEqual({ state: replay(logOf(actions)), version: 10 });
    expect(
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT stream, gap_from FROM event_streams ORDER BY stream').all(),
      ),
    ).toEqual([
      { stream: 'gap', gap_from: 1 },
      { stream: 'whole', gap_from: null },
    ]);
    await store.close();
  });

  it('an unbound snapshot (the envelope alone, as written before snapshots were bound) is passed over', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    const mine = Array.from({ length: 6 }, (_, i) => added(`s-${i}`));
    const theirs = Array.from({ length: 6 }, (_, i) => added(`t-${i}`));
    await store.append('s', mine, { expectedVersion: 0, config: CONFIG });
    // An old-format snapshot holding another state: trusting it would return that state.
    const foreign = JSON.stringify(encodeEnvelope(seek(logOf(theirs), 4)));
    withDatabaseFile(file, (db) =>
      db
        .prepare('UPDATE event_snapshots SET state = ? WHERE stream = ? AND version = 4')
        .run(foreign, STREAM_ID(db, 's')),
    );
    expect(await store.load('s')).toEqual({ state: replay(logOf(mine)), version: 6 });
    expect((await store.load('s', { atVersion: 5 }))?.state).toEqual(seek(logOf(mine), 5));
    await store.close();
  });

  it('a file of the earlier schema (no event_streams.version) gets the column, filled from its actions', async () => {
    const file = freshPath();
    const first = new SqliteEventStore({ path: file });
    const actions = [1, 2, 3, 4, 5].map((i) => added(`m${i}`));
    await first.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    await first.append('empty', [], { expectedVersion: 0, config: CONFIG });
    await first.close();
    withDatabaseFile(file, (db) => db.exec('ALTER TABLE event_streams DROP COLUMN version'));
    const store = new SqliteEventStore({ path: file });
    expect(
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT stream, version FROM event_streams ORDER BY stream').all(),
      ),
    ).toEqual([
      { stream: 'empty', version: 0 },
      { stream: 's1', version: 5 },
    ]);
    expect(await store.load('s1')).toEqual({ state: replay(logOf(actions)), version: 5 });
    // Now a deleted last action is noticed.
    withDatabaseFile(file, (db) =>
      db
        .prepare('DELETE FROM event_actions WHERE stream = ? AND version = 5')
        .run(STREAM_ID(db, 's1')),
    );
    expect(await rejection(store.load('s1'))).toMatchObject({
      code: 'CM_EVENT_CORRUPT',
      version: 5,
    });
    // A stream whose version is NULL (created by an earlier version of the store) is at its
    // highest action, and its next append records its version.
    withDatabaseFile(file, (db) =>
      db.exec("UPDATE event_streams SET version = NULL WHERE stream = 's1'"),
    );
    expect((await store.streams()).map((s) => [s.streamId, s.version])).toEqual([
      ['empty', 0],
      ['s1', 4],
    ]);
    expect(await store.append('s1', [added('m5')], { expectedVersion: 4 })).toEqual({ version: 5 });
    expect(
      withDatabaseFile(file, (db) =>
        db.prepare("SELECT version FROM event_streams WHERE stream = 's1'").pluck().get(),
      ),
    ).toBe(5);
    expect((await collect(store.read('s1'))).map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
    await store.close();
  });
});
