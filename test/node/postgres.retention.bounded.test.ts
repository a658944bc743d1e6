/**
 * Retention on the Postgres stores, what only this backend can break (issue #30): `sweep` and
 * `deleteNamespace` remove at most SWEEP_BATCH rows a transaction (every table is counted after
 * each statement a store sends, through a watched pool: each count falls by at most SWEEP_BATCH,
 * over several statements), an expired stream's key is free for a new stream while its old rows
 * are still being removed, and `prune` is atomic: the connection killed before any of its writes
 * leaves the stream whole.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EventStore,
  memoryActions,
  type MemoryAction,
  type SessionStore,
  StoreUnavailableError,
} from 'conversation-memory';
import type { KnowledgeStore } from 'conversation-memory/knowledge';
import { createKnowledge } from 'conversation-memory/knowledge';
import {
  PostgresEventStore,
  PostgresKnowledgeStore,
  PostgresSessionStore,
} from 'conversation-memory/node';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { type PostgresTestServer, startPostgresServer } from '../support/postgresServer';
import { type SentStatement, watchedPool } from '../support/watchedPool';
import { collect, CONFIG, sampleState } from '../stores/storeSamples';
import { manualClock, rejection } from '../stores/suiteHelpers';

let server: PostgresTestServer;
let admin: pg.Pool;
let counter = 0;
const freshSchema = (): string => `cm_bounded_${++counter}`;

beforeAll(async () => {
  server = await startPostgresServer();
  admin = new pg.Pool({ connectionString: server.url, max: 4 });
  admin.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

/** More rows than three batches. */
const MANY = 3 * SWEEP_BATCH + 1;

const said = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

const countOf = async (schema: string, table: string): Promise<number> =>
  Number((await admin.query(`SELECT count(*) AS n FROM "${schema}".${table}`)).rows[0].n);

/**
 * The counts of `tables` after each statement the store sends while `run` runs (one entry per
 * statement, then the counts at the end).
 */
const countsDuring = (schema: string, tables: readonly string[]) => {
  let watching = false;
  const seen: number[][] = [];
  const after = async () => {
    if (watching) seen.push(await Promise.all(tables.map((table) => countOf(schema, table))));
  };
  const during = async <T>(run: () => Promise<T>): Promise<{ value: T; seen: number[][] }> => {
    seen.length = 0;
    seen.push(await Promise.all(tables.map((table) => countOf(schema, table))));
    watching = true;
    try {
      return { value: await run(), seen: [...seen] };
    } finally {
      watching = false;
    }
  };
  return { pool: watchedPool(admin, { after }), during };
};

/** Each table's count falls by at most SWEEP_BATCH a statement, from `from` to `to`, in steps. */
const expectBatches = (seen: number[][], column: number, from: number, to: number) => {
  const counts = seen.map((row) => row[column] as number);
  expect(counts[0]).toBe(from);
  expect(counts.at(-1)).toBe(to);
  const steps = counts.slice(1).map((count, i) => (counts[i] as number) - count);
  for (const step of steps) expect(step).toBeLessThanOrEqual(SWEEP_BATCH);
  expect(steps.filter((step) => step > 0).length).toBeGreaterThanOrEqual(
    Math.ceil((from - to) / SWEEP_BATCH),
  );
};

/** One-row-per-record stores: their table, key column and a copy of a seed row `MANY` times. */
const rowStores = [
  {
    name: 'PostgresSessionStore',
    table: 'sessions',
    make: (pool: pg.Pool | ReturnType<typeof watchedPool>, schema: string, now: () => number) =>
      new PostgresSessionStore({ pool: pool as never, schema, defaultTtl: 60, now }),
    seed: async (store: SessionStore | KnowledgeStore, namespace?: string) =>
      (store as SessionStore).save('seed', sampleState(), { namespace }),
    copy: (s: string) =>
      `INSERT INTO "${s}".sessions (session_key, namespace, session_id, memory_json, memory_digest, message_count, revision, created_at, updated_at, search_document)
       SELECT $1 || 'r' || i, namespace, 'r' || i, memory_json, memory_digest, message_count, 1, created_at, updated_at, search_document
       FROM "${s}".sessions, generate_series(1, $3::int) AS i WHERE session_key = $2`,
  },
  {
    name: 'PostgresKnowledgeStore',
    table: 'knowledge',
    make: (pool: pg.Pool | ReturnType<typeof watchedPool>, schema: string, now: () => number) =>
      new PostgresKnowledgeStore({ pool: pool as never, schema, defaultTtl: 60, now }),
    seed: async (store: SessionStore | KnowledgeStore, namespace?: string) =>
      (store as KnowledgeStore).save('seed', createKnowledge(), { namespace }),
    copy: (s: string) =>
      `INSERT INTO "${s}".knowledge (record_key, namespace, record_id, state_json, state_digest, revision, updated_at)
       SELECT $1 || 'r' || i, namespace, 'r' || i, state_json, state_digest, 1, updated_at
       FROM "${s}".knowledge, generate_series(1, $3::int) AS i WHERE record_key = $2`,
  },
] as const;

describe.each(rowStores)('$name: sweep and deleteNamespace in bounded batches', (kind) => {
  it(`sweep removes ${MANY} expired records at most SWEEP_BATCH a statement, and leaves the live one`, async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const { pool, during } = countsDuring(schema, [kind.table]);
    const store = kind.make(pool, schema, clock.now);
    await kind.seed(store);
    await admin.query(kind.copy(schema), ['', 'seed', MANY - 1]);
    clock.advance(61);
    await kind.seed(store, 'live');
    const { value, seen } = await during(() => store.sweep());
    expect(value).toEqual({ removed: MANY });
    expectBatches(seen, 0, MANY + 1, 1);
    await store.close();
  });

  it(`deleteNamespace removes ${MANY} records at most SWEEP_BATCH a statement, and no other`, async () => {
    const schema = freshSchema();
    const { pool, during } = countsDuring(schema, [kind.table]);
    const store = kind.make(pool, schema, manualClock().now);
    await kind.seed(store, 'a');
    await admin.query(kind.copy(schema), ['a:', 'a:seed', MANY - 1]);
    await kind.seed(store, 'ab');
    await kind.seed(store);
    const { value, seen } = await during(() => store.deleteNamespace('a'));
    expect(value).toEqual({ removed: MANY });
    expectBatches(seen, 0, MANY + 2, 2);
    await store.close();
  });
});

describe('PostgresEventStore: sweep and deleteNamespace in bounded batches', () => {
  const tables = ['event_streams', 'event_actions'] as const;

  /** `MANY` streams of one action each under `prefix`, copied from the stream `seed`. */
  const copyStreams = async (schema: string, prefix: string, seed: string) => {
    const s = `"${schema}"`;
    await admin.query(
      `INSERT INTO ${s}.event_streams (stream_key, namespace, config_json, created_at, version, updated_at)
       SELECT $1 || 'c' || i, namespace, config_json, created_at, 1, updated_at
       FROM ${s}.event_streams, generate_series(1, $3::int) AS i WHERE stream_key = $2`,
      [prefix, seed, MANY],
    );
    await admin.query(
      `INSERT INTO ${s}.event_actions (stream, version, action_json)
       SELECT h.id, 1, a.action_json FROM ${s}.event_streams AS h, ${s}.event_actions AS a
       WHERE starts_with(h.stream_key, $1 || 'c') AND a.stream = (SELECT id FROM ${s}.event_streams WHERE stream_key = $2)`,
      [prefix, seed],
    );
  };

  it(`sweep takes away ${MANY} expired streams and a stream of ${MANY} actions at most SWEEP_BATCH rows a statement; the key of one is free at once`, async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const { pool, during } = countsDuring(schema, tables);
    const store = new PostgresEventStore({ pool, schema, defaultTtl: 60, now: clock.now });
    const big = Array.from({ length: MANY }, (_, i) => said(`old ${i}`));
    await store.append('big', big, { expectedVersion: 0, config: CONFIG });
    await store.append('seed', [said('seed')], { expectedVersion: 0 });
    await copyStreams(schema, '', 'seed');
    clock.advance(61);
    await store.append('live', [said('live')], { expectedVersion: 0 });
    // An expired stream is at version 0: a new one under its key shares nothing with it.
    const other = new PostgresEventStore({ pool: admin, schema, defaultTtl: 60, now: clock.now });
    expect(await other.append('big', [said('new')], { expectedVersion: 0 })).toEqual({
      version: 1,
    });
    expect(await countOf(schema, 'event_removals')).toBe(1);
    const { value, seen } = await during(() => store.sweep());
    expect(value).toEqual({ removed: MANY + 1 });
    // Rows: MANY + 1 expired streams, MANY + 1 + MANY of their actions; the new 'big' and 'live'.
    expectBatches(seen, 0, MANY + 3, 2);
    expectBatches(seen, 1, MANY + 1 + MANY + 2, 2);
    expect((await collect(other.read('big'))).map((entry) => entry.action)).toEqual([said('new')]);
    expect(await countOf(schema, 'event_removals')).toBe(0);
    expect(await countOf(schema, 'event_snapshots')).toBe(0);
    await other.close();
    await store.close();
  });

  it(`deleteNamespace takes away ${MANY} streams at most SWEEP_BATCH rows a statement, and no other`, async () => {
    const schema = freshSchema();
    const { pool, during } = countsDuring(schema, tables);
    const store = new PostgresEventStore({ pool, schema, snapshotEvery: 2 });
    await store.append('seed', [said('seed')], { expectedVersion: 0, namespace: 'a' });
    await copyStreams(schema, 'a:', 'a:seed');
    await store.append('kept', [said('x'), said('y')], { expectedVersion: 0, namespace: 'ab' });
    await store.append('a:kept', [said('z')], { expectedVersion: 0 });
    const { value, seen } = await during(() => store.deleteNamespace('a'));
    expect(value).toEqual({ removed: MANY + 1 });
    expectBatches(seen, 0, MANY + 3, 2);
    expectBatches(seen, 1, MANY + 1 + 3, 3);
    expect(await countOf(schema, 'event_snapshots')).toBe(1);
    expect((await store.streams()).map((info) => info.streamId)).toEqual(['a%3Akept', 'ab:kept']);
    await store.close();
  });
});

describe('PostgresEventStore.prune is one transaction', () => {
  /** Everything the stream shows, and its rows. */
  const shown = async (store: EventStore, schema: string) => ({
    read: await collect(store.read('s1', { namespace: 'u1' })),
    at1: await store.load('s1', { atVersion: 1, namespace: 'u1' }),
    load: await store.load('s1', { namespace: 'u1' }),
    streams: await store.streams(),
    actions: await countOf(schema, 'event_actions'),
    snapshots: await countOf(schema, 'event_snapshots'),
  });

  /** Is this one of the prune's writes (or its commit)? */
  const isPruneWrite = ({ text }: SentStatement) =>
    /^(INSERT INTO \S+\.event_snapshots|UPDATE \S+\.event_streams SET first_version|WITH gone AS \(DELETE FROM \S+\.event_actions|DELETE FROM \S+\.event_snapshots|COMMIT)/u.test(
      text,
    );

  it('the connection killed before any one of its writes (or its commit) leaves the stream whole; then it prunes', async () => {
    const schema = freshSchema();
    let killBefore = 0;
    let writes = 0;
    const before = async (sent: SentStatement) => {
      if (!isPruneWrite(sent)) return;
      writes++;
      if (writes !== killBefore) return;
      // Its connection killed; a statement on no connection of its own is not sent at all.
      if (sent.pid === undefined) throw Object.assign(new Error('killed'), { code: '57P01' });
      await admin.query('SELECT pg_terminate_backend($1)', [sent.pid]);
    };
    const store = new PostgresEventStore({
      pool: watchedPool(admin, { before }),
      schema,
      snapshotEvery: 4,
    });
    const actions = Array.from({ length: 11 }, (_, i) => said(`m${i}`));
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG, namespace: 'u1' });
    const whole = await shown(store, schema);
    expect(whole.snapshots).toBe(2);
    for (killBefore = 1; killBefore <= 5; killBefore++) {
      writes = 0;
      const error = await rejection(store.prune('s1', { before: 7, namespace: 'u1' }));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(writes).toBe(killBefore);
      expect(await shown(store, schema)).toEqual(whole);
    }
    killBefore = 0;
    expect(await store.prune('s1', { before: 7, namespace: 'u1' })).toEqual({ removed: 6 });
    expect(await store.load('s1', { namespace: 'u1' })).toEqual(whole.load);
    expect((await store.streams())[0]?.prunedBefore).toBe(7);
    await store.close();
  });
});
