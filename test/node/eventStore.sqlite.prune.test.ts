import { describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  EventPrunedError,
  type EventStore,
  memoryActions,
  type MemoryAction,
  replay,
} from 'conversation-memory';
import { SqliteEventStore } from 'conversation-memory/node';
import { collect, CONFIG } from '../stores/storeSamples';
import { manualClock, rejection } from '../stores/suiteHelpers';
import { tempDatabasePaths } from '../support/sqliteFiles';
import { atEveryTurn, sideConnection } from '../support/sqliteRetention';

// What only the SQLite event store can break in retention: a prune is one transaction (a failure
// at any of its statements leaves the stream whole), a file of the released version (no retention
// columns) keeps working and its streams' TTL runs from the day it is opened, and the rows of a
// removed stream that a crash left behind are removed by the next sweep.

const freshPath = tempDatabasePaths('cm-events-prune-');

const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });
const ACTIONS = Array.from({ length: 11 }, (_, i) => added(`m${i}`));

/** Everything the store shows of stream `s1`, and its rows as another program reads them. */
const everything = async (store: EventStore, file: string) => {
  const db = sideConnection(file);
  const shown: unknown[] = [await store.streams(), await collect(store.read('s1'))];
  for (let v = 0; v <= ACTIONS.length; v++) shown.push(await store.load('s1', { atVersion: v }));
  const rows = ['event_streams', 'event_actions', 'event_snapshots'].map((table) =>
    db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(),
  );
  return { shown, rows };
};

describe('SqliteEventStore.prune is one transaction', () => {
  it.each([
    ['writing the snapshot', 'BEFORE INSERT ON event_snapshots WHEN NEW.version = 6'],
    ['removing the actions (part-way)', 'BEFORE DELETE ON event_actions WHEN OLD.version = 4'],
    ['removing the snapshots', 'BEFORE DELETE ON event_snapshots'],
    ['recording the first version', 'BEFORE UPDATE OF first_version ON event_streams'],
  ])('a failure while %s leaves the stream whole (rows and reads)', async (_, when) => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    await store.append('s1', ACTIONS, { expectedVersion: 0, config: CONFIG });
    const before = await everything(store, file);
    const db = sideConnection(file);
    db.exec(`CREATE TRIGGER fail_prune ${when} BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    expect(String(await rejection(store.prune('s1', { before: 6 })))).toContain('disk full');
    db.exec('DROP TRIGGER fail_prune');
    expect(await everything(store, file)).toEqual(before);
    // Nothing else was in the way.
    expect(await store.prune('s1', { before: 6 })).toEqual({ removed: 5 });
    expect((await store.streams())[0]?.prunedBefore).toBe(6);
    await store.close();
  });
});

describe('SqliteEventStore: reads racing a prune', () => {
  /** A stream longer than two pages (512 actions each), with no snapshot before the prune's. */
  const longStream = async () => {
    const store = new SqliteEventStore({ path: freshPath(), snapshotEvery: 5_000 });
    const actions = Array.from({ length: 1_200 }, (_, i) => added(`m${i}`));
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    /** Prunes at the second turn of the event loop: after the first page was read. */
    let turn = 0;
    const pruneAfterOnePage = async () => {
      if (turn++ === 1) await store.prune('s1', { before: 1_000 });
    };
    return { store, actions, pruneAfterOnePage };
  };

  it('a load whose next page a prune removed starts again from the prune’s snapshot: the same state', async () => {
    const { store, actions, pruneAfterOnePage } = await longStream();
    const log = actions.reduce(appendAction, createEventLog(CONFIG));
    const loaded = await atEveryTurn(() => store.load('s1'), pruneAfterOnePage);
    expect((await store.streams())[0]?.prunedBefore).toBe(1_000);
    expect(loaded).toEqual({ state: replay(log), version: 1_200 });
    await store.close();
  });

  it('a read whose next page a prune removed rejects with EventPrunedError, not as a damaged stream', async () => {
    const { store, pruneAfterOnePage } = await longStream();
    const error = await rejection(atEveryTurn(() => collect(store.read('s1')), pruneAfterOnePage));
    expect(error).toBeInstanceOf(EventPrunedError);
    expect(error).toMatchObject({ requestedVersion: 513, firstVersion: 1_000 });
    await store.close();
  });
});

describe('SqliteEventStore: a file of the released version (no retention columns)', () => {
  it('opens, loads, appends and prunes; its streams expire defaultTtl after it is opened', async () => {
    const file = freshPath();
    const old = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    await old.append('s1', ACTIONS.slice(0, 9), { expectedVersion: 0, config: CONFIG });
    await old.append('s2', ACTIONS.slice(0, 2), { expectedVersion: 0 });
    await old.close();
    const db = sideConnection(file);
    // The released schema: these are what this version adds.
    db.exec(`ALTER TABLE event_streams DROP COLUMN updated_at;
      ALTER TABLE event_streams DROP COLUMN first_version;
      DROP TABLE event_removals;`);
    const clock = manualClock();
    const store = new SqliteEventStore({
      path: file,
      snapshotEvery: 4,
      defaultTtl: 60,
      now: clock.now,
    });
    const log = ACTIONS.slice(0, 9).reduce(appendAction, createEventLog(CONFIG));
    expect(await store.load('s1')).toEqual({ state: replay(log), version: 9 });
    clock.advance(30);
    expect(await store.append('s1', ACTIONS.slice(9), { expectedVersion: 9 })).toEqual({
      version: 11,
    });
    expect(await store.prune('s1', { before: 7 })).toEqual({ removed: 6 });
    clock.advance(30);
    // 60 seconds after the file was opened: s2 (never appended to since) is still there.
    expect((await store.streams()).map((info) => [info.streamId, info.prunedBefore])).toEqual([
      ['s1', 7],
      ['s2', undefined],
    ]);
    clock.advance(1);
    expect(await store.load('s2')).toBeNull();
    expect(await store.sweep()).toEqual({ removed: 1 });
    expect((await store.load('s1'))?.version).toBe(11);
    await store.close();
  });
});

describe('SqliteEventStore: rows of removed streams', () => {
  it('the next sweep removes what a removal cut short left (even without a TTL); a queued id of a live stream is left alone', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 2 });
    for (const id of ['gone', 'live', 'kept']) {
      await store.append(id, ACTIONS.slice(0, 5), { expectedVersion: 0 });
    }
    const db = sideConnection(file);
    const idOf = db
      .prepare<[string], number>('SELECT id FROM event_streams WHERE stream = ?')
      .pluck();
    const [gone, live] = [idOf.get('gone') as number, idOf.get('live') as number];
    // A crash after the stream's row was taken (with its queue entry), before its rows went.
    db.transaction(() => {
      db.prepare('DELETE FROM event_streams WHERE id = ?').run(gone);
      db.prepare('INSERT INTO event_removals (stream) VALUES (?), (?)').run(gone, live);
    })();
    const rowsOf = (id: number) =>
      db
        .prepare<[number, number], number>(
          'SELECT (SELECT count(*) FROM event_actions WHERE stream = ?) + (SELECT count(*) FROM event_snapshots WHERE stream = ?)',
        )
        .pluck()
        .get(id, id);
    expect(rowsOf(gone)).toBe(7);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(rowsOf(gone)).toBe(0);
    expect(rowsOf(live)).toBe(7);
    expect(db.prepare('SELECT count(*) FROM event_removals').pluck().get()).toBe(0);
    expect((await store.load('live'))?.version).toBe(5);
    await store.close();
  });

  it('an append at version 0 to an expired stream gives its key a new stream at once; the old rows are unreachable, then swept', async () => {
    const clock = manualClock();
    const file = freshPath();
    const store = new SqliteEventStore({
      path: file,
      snapshotEvery: 2,
      defaultTtl: 60,
      now: clock.now,
    });
    await store.append('s1', ACTIONS.slice(0, 5), { expectedVersion: 0, config: CONFIG });
    const db = sideConnection(file);
    const idOf = db
      .prepare<[string], number>('SELECT id FROM event_streams WHERE stream = ?')
      .pluck();
    const old = idOf.get('s1') as number;
    clock.advance(61);
    expect(await store.append('s1', [added('new')], { expectedVersion: 0 })).toEqual({
      version: 1,
    });
    const fresh = idOf.get('s1') as number;
    expect(fresh).not.toBe(old);
    expect(db.prepare('SELECT stream FROM event_removals').pluck().all()).toEqual([old]);
    expect(await collect(store.read('s1'))).toEqual([{ version: 1, action: added('new') }]);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(db.prepare('SELECT DISTINCT stream FROM event_actions').pluck().all()).toEqual([fresh]);
    expect(db.prepare('SELECT count(*) FROM event_snapshots').pluck().get()).toBe(0);
    await store.close();
  });
});
