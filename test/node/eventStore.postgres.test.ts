/**
 * PostgresEventStore against a real PostgreSQL that this file starts: the event-store conformance
 * suite (with every damage hook, rows changed by hand as another program would), and `subscribe`
 * with LISTEN/NOTIFY: live delivery across stores, and a subscriber whose connection is killed
 * resumes without a gap or a repeat.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  type EventStore,
  EventPrunedError,
  memoryActions,
  type MemoryAction,
  StoreUnavailableError,
  type StoredAction,
} from 'conversation-memory';
import { PostgresEventStore } from 'conversation-memory/node';
import { eventStoreConformance } from 'conversation-memory/store-kit/testing';
import { usePostgres } from '../support/usePostgres';

const db = usePostgres('cm_events_');
const freshSchema = db.freshSchema;

const schemaOf = (store: EventStore): string => `"${(store as PostgresEventStore).schema}"`;
const streamOf = (store: EventStore) =>
  `(SELECT id FROM ${schemaOf(store)}.event_streams WHERE stream_key = $1)`;

eventStoreConformance('PostgresEventStore', {
  make: async (options) =>
    new PostgresEventStore({ pool: db.admin, schema: freshSchema(), ...options }),
  dropSnapshots: async (store) => {
    await db.admin.query(`DELETE FROM ${schemaOf(store)}.event_snapshots`);
  },
  corruptAction: async (store, key, version, json) => {
    const result = await db.admin.query(
      `UPDATE ${schemaOf(store)}.event_actions SET action_json = $3 WHERE stream = ${streamOf(store)} AND version = $2`,
      [key, version, json],
    );
    expect(result.rowCount).toBe(1);
  },
  deleteAction: async (store, key, version) => {
    const result = await db.admin.query(
      `DELETE FROM ${schemaOf(store)}.event_actions WHERE stream = ${streamOf(store)} AND version = $2`,
      [key, version],
    );
    expect(result.rowCount).toBe(1);
  },
  insertAction: async (store, key, version, json) => {
    await db.admin.query(
      `INSERT INTO ${schemaOf(store)}.event_actions (stream, version, action_json) VALUES (${streamOf(store)}, $2, $3)`,
      [key, version, json],
    );
  },
  copySnapshot: async (store, from, to) => {
    const s = schemaOf(store);
    const result = await db.admin.query(
      `INSERT INTO ${s}.event_snapshots (stream, version, snapshot_json)
       SELECT (SELECT id FROM ${s}.event_streams WHERE stream_key = $3), $4, snapshot_json
       FROM ${s}.event_snapshots WHERE stream = (SELECT id FROM ${s}.event_streams WHERE stream_key = $1) AND version = $2
       ON CONFLICT (stream, version) DO UPDATE SET snapshot_json = EXCLUDED.snapshot_json`,
      [from.key, from.version, to.key, to.version],
    );
    expect(result.rowCount).toBe(1);
  },
});

const said = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });
const contentOf = (entry: StoredAction): unknown =>
  (entry.action as { payload?: { content?: unknown } }).payload?.content;

describe('PostgresEventStore.subscribe (LISTEN/NOTIFY and a catch-up read)', () => {
  it('delivers what is there after fromVersion, then live appends of another store, each once, in order, at once', async () => {
    const schema = freshSchema();
    const writer = new PostgresEventStore({ pool: db.admin, schema });
    const reader = new PostgresEventStore({ connectionString: db.server.url, schema });
    await writer.append('s1', [said('a'), said('b'), said('c')], { expectedVersion: 0 });
    const seen: StoredAction[] = [];
    const errors: unknown[] = [];
    const unsubscribe = reader.subscribe('s1', 1, (entry) => void seen.push(entry), {
      onError: (error) => errors.push(error),
    });
    await vi.waitFor(() => expect(seen.map((e) => e.version)).toEqual([2, 3]));
    // Another stream's appends are not delivered.
    await writer.append('other', [said('x')], { expectedVersion: 0 });
    for (let version = 3; version < 8; version++) {
      await writer.append('s1', [said(`live ${version + 1}`)], { expectedVersion: version });
      // Well within the subscription's 5 s poll: the notification woke it.
      await vi.waitFor(() => expect(seen.at(-1)?.version).toBe(version + 1), {
        timeout: 1_500,
        interval: 10,
      });
    }
    expect(seen.map((e) => e.version)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(seen.map(contentOf).slice(2)).toEqual([
      'live 4',
      'live 5',
      'live 6',
      'live 7',
      'live 8',
    ]);
    await unsubscribe();
    await writer.append('s1', [said('after')], { expectedVersion: 8 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(7);
    expect(errors).toEqual([]);
    await reader.close();
    await writer.close();
  }, 30_000);

  it('on a pruned stream, a subscriber from below its first version gets EventPrunedError once and stops; one from first − 1 on is served', async () => {
    const store = new PostgresEventStore({ pool: db.admin, schema: freshSchema() });
    await store.append('s1', ['a', 'b', 'c', 'd', 'e'].map(said), { expectedVersion: 0 });
    expect(await store.prune('s1', { before: 4 })).toEqual({ removed: 3 });
    const errors: unknown[] = [];
    const early: number[] = [];
    const stopEarly = store.subscribe('s1', 1, ({ version }) => void early.push(version), {
      onError: (error) => errors.push(error),
    });
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    // Past several retry pauses (100 ms, doubling): a pruned range does not come back.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(EventPrunedError);
    expect(errors[0]).toMatchObject({ requestedVersion: 2, firstVersion: 4 });
    expect(early).toEqual([]);
    await stopEarly();
    const seen: number[] = [];
    const stop = store.subscribe('s1', 3, ({ version }) => void seen.push(version));
    await vi.waitFor(() => expect(seen).toEqual([4, 5]));
    await stop();
    await store.close();
  }, 30_000);

  it('a subscriber whose connection is terminated reconnects and resumes: no gap, no repeat', async () => {
    const schema = freshSchema();
    const writer = new PostgresEventStore({ pool: db.admin, schema });
    const reader = new PostgresEventStore({ connectionString: db.server.url, schema });
    await writer.append('s1', [said('0')], { expectedVersion: 0 });
    const seen: number[] = [];
    const errors: unknown[] = [];
    const unsubscribe = reader.subscribe('s1', 0, ({ version }) => void seen.push(version), {
      onError: (error) => errors.push(error),
    });
    let version = 1;
    for (let round = 0; round < 3; round++) {
      await vi.waitFor(() => expect(seen.at(-1)).toBe(version));
      const { rows } = await db.admin.query(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()",
      );
      expect(rows).toHaveLength(1);
      await db.admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      // Appends while the subscriber is away.
      for (let i = 0; i < 3; i++) {
        await writer.append('s1', [said(`${version}`)], { expectedVersion: version });
        version++;
      }
    }
    await vi.waitFor(() => expect(seen.at(-1)).toBe(version), { timeout: 10_000 });
    expect(seen).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const error of errors) {
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ id: 's1', transient: true });
    }
    await unsubscribe();
    await reader.close();
    await writer.close();
  }, 30_000);

  it('follows through a server crash (SIGKILL) and restart, and close() stops every subscription', async () => {
    const schema = freshSchema();
    const writer = new PostgresEventStore({ connectionString: db.server.url, schema });
    const reader = new PostgresEventStore({ connectionString: db.server.url, schema });
    await writer.append('s1', [said('1')], { expectedVersion: 0 });
    const seen: number[] = [];
    reader.subscribe('s1', 0, ({ version }) => void seen.push(version));
    reader.subscribe('s1', 0, () => undefined, { namespace: 'elsewhere' });
    await vi.waitFor(() => expect(seen).toEqual([1]));
    await db.server.kill();
    await db.server.restart();
    await vi.waitFor(
      async () =>
        expect(await writer.append('s1', [said('2')], { expectedVersion: 1 })).toEqual({
          version: 2,
        }),
      { timeout: 10_000, interval: 100 },
    );
    await vi.waitFor(() => expect(seen).toEqual([1, 2]), { timeout: 10_000 });
    await reader.close();
    // The subscriptions' connections are gone with the reader's pool.
    await vi.waitFor(async () => {
      const { rows } = await db.admin.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN %' OR query = 'UNLISTEN *'",
      );
      expect(rows[0].n).toBe(0);
    });
    await writer.append('s1', [said('3')], { expectedVersion: 2 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([1, 2]);
    await writer.close();
  }, 60_000);
});

describe('PostgresEventStore.append: one round trip', () => {
  it('an append that reaches no snapshot is one statement, concurrent writers in other pools included', async () => {
    const sent: string[] = [];
    let connects = 0;
    const counting = {
      query: (query: { readonly text: string }) => {
        sent.push(query.text);
        return db.admin.query(query as never);
      },
      connect: () => {
        connects++;
        return db.admin.connect();
      },
    };
    const store = new PostgresEventStore({
      pool: counting as never,
      schema: freshSchema(),
      snapshotEvery: 1_000,
    });
    await store.append('s1', [], { expectedVersion: 0 }); // makes the tables
    sent.length = 0;
    connects = 0;
    for (let version = 0; version < 5; version++) {
      await store.append('s1', [said(`${version}`), said('x')], { expectedVersion: version * 2 });
    }
    expect(sent).toHaveLength(5);
    expect(connects).toBe(0);
    expect(sent.every((text) => text.includes('.event_append($1::text'))).toBe(true);
    expect((await store.load('s1'))?.version).toBe(10);
    await store.close();
  });
});
