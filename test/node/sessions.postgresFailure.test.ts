/**
 * PostgresSessionStore when PostgreSQL fails it, for real: the server stopped (refused, then back
 * after a restart), and a connection ended by `pg_terminate_backend` while a save waits on it.
 * Each failure is a `StoreUnavailableError` that says whether a write may have been applied.
 */
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from 'conversation-memory';
import { PostgresSessionStore } from 'conversation-memory/node';
import { usePostgres, whileHalted } from '../support/usePostgres';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

const db = usePostgres('cm_failure_');

describe('PostgresSessionStore: the server stopped', () => {
  it('every method fails with a transient StoreUnavailableError, nothing written; after a restart the same store works', async () => {
    const stores = [
      new PostgresSessionStore({ pool: db.pool(), schema: db.freshSchema() }),
      new PostgresSessionStore({ connectionString: db.server.url, schema: db.freshSchema() }),
    ];
    for (const store of stores) await store.save('s1', sampleState(['before']));
    await whileHalted(db.server, async () => {
      for (const store of stores) {
        const calls: [string, () => Promise<unknown>][] = [
          ['save', () => store.save('s1', sampleState(['during']))],
          ['load', () => store.load('s1')],
          ['exists', () => store.exists('s1')],
          ['delete', () => store.delete('s1')],
          ['list', () => store.list()],
          ['search', () => store.search('before')],
          ['branch', () => store.branch('s1', 's2')],
        ];
        for (const [method, call] of calls) {
          const error = await rejection(call());
          expect(error, method).toBeInstanceOf(StoreUnavailableError);
          expect(error, method).toMatchObject({
            transient: true,
            mayHaveWritten: false,
            store: 'PostgresSessionStore',
          });
          expect((error as Error).message, method).toContain(
            `PostgresSessionStore.${method}: PostgreSQL is unreachable`,
          );
        }
      }
    });
    for (const store of stores) {
      expect((await store.load('s1'))?.state.messages[0]?.content).toBe('before');
      expect(await store.save('s1', sampleState(['after']), { expectedRevision: 1 })).toEqual({
        revision: 2,
      });
      await store.close();
    }
  }, 60_000);

  it('a store first used while the server is down makes its tables once it is back', async () => {
    const store = new PostgresSessionStore({
      connectionString: db.server.url,
      schema: db.freshSchema(),
    });
    await whileHalted(db.server, async () => {
      expect(await rejection(store.list())).toBeInstanceOf(StoreUnavailableError);
    });
    expect(await store.save('s1', sampleState())).toEqual({ revision: 1 });
    await store.close();
  }, 60_000);
});

describe('PostgresSessionStore: a connection lost mid-call', () => {
  it('a save whose backend is terminated while it runs: mayHaveWritten, and the row is whole', async () => {
    const schema = db.freshSchema();
    const store = new PostgresSessionStore({ pool: db.pool(1), schema });
    await store.save('s1', sampleState(['one']));
    const holder = new pg.Client({ connectionString: db.server.url });
    await holder.connect();
    try {
      // Hold the row, so that the store's save waits in the server.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "${schema}".sessions WHERE session_key = 's1' FOR UPDATE`);
      const saving = rejection(store.save('s1', sampleState(['two']), { expectedRevision: 1 }));
      const pid = await vi.waitFor(
        async () => {
          const { rows } = await db.admin.query(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
            [`UPDATE "${schema}".sessions%`],
          );
          expect(rows).toHaveLength(1);
          return rows[0].pid as number;
        },
        { timeout: 10_000, interval: 20 },
      );
      await holder.query('SELECT pg_terminate_backend($1)', [pid]);
      const error = await saving;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ transient: true, mayHaveWritten: true, id: 's1' });
      expect((error as Error).message).toContain('the connection to PostgreSQL was lost');
      expect((error as Error).message).toContain('read it back before deciding again');
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    // Nothing half-written: the save did not commit, and the store goes on with a new connection.
    const loaded = await store.load('s1');
    expect(loaded?.revision).toBe(1);
    expect(loaded?.state.messages[0]?.content).toBe('one');
    expect(await store.save('s1', sampleState(['two']), { expectedRevision: 1 })).toEqual({
      revision: 2,
    });
    await store.close();
  }, 30_000);

  it('a load whose backend is terminated: transient, nothing written', async () => {
    const schema = db.freshSchema();
    const store = new PostgresSessionStore({ pool: db.pool(1), schema });
    await store.save('s1', sampleState(['one']));
    const holder = new pg.Client({ connectionString: db.server.url });
    await holder.connect();
    try {
      // An exclusive lock on the table makes the load wait.
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${schema}".sessions IN ACCESS EXCLUSIVE MODE`);
      const loading = rejection(store.load('s1'));
      const pid = await vi.waitFor(
        async () => {
          const { rows } = await db.admin.query(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT session_key%'",
          );
          expect(rows).toHaveLength(1);
          return rows[0].pid as number;
        },
        { timeout: 10_000, interval: 20 },
      );
      await holder.query('SELECT pg_terminate_backend($1)', [pid]);
      const error = await loading;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error).toMatchObject({ transient: true, mayHaveWritten: false, id: 's1' });
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    expect((await store.load('s1'))?.revision).toBe(1);
    await store.close();
  }, 30_000);
});
