/**
 * PostgresSessionStore against a real PostgreSQL that this file starts (test/support/
 * postgresServer.ts): the session conformance suite, with the application's pool and with a pool
 * of the store's own, each test in a schema of its own.
 */
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  MemoryArgumentError,
  SessionCorruptError,
  type SessionStore,
  StoreUnavailableError,
  toDict,
} from 'conversation-memory';
import { PostgresSessionStore } from 'conversation-memory/node';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { usePostgres } from '../support/usePostgres';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

const db = usePostgres('cm_test_');
const freshSchema = db.freshSchema;

/** Replaces the memory of a stored session with JSON that does not decode. */
const corruptMemory = async (store: SessionStore, key: string): Promise<void> => {
  const { schema } = store as PostgresSessionStore;
  const result = await db.admin.query(
    `UPDATE "${schema}".sessions SET memory_json = $2 WHERE session_key = $1`,
    [key, '{"max_messages": 5, "messages": [{"role": "USER", "content": "x"}]}'],
  );
  if (result.rowCount !== 1) throw new Error(`no row ${key} to damage`);
};

sessionStoreConformance('PostgresSessionStore (the application’s pool)', {
  make: async (options) =>
    new PostgresSessionStore({ pool: db.admin, schema: freshSchema(), ...options }),
  corrupt: corruptMemory,
  asideCount: async (store) => (store as PostgresSessionStore).asideCount(),
});

sessionStoreConformance('PostgresSessionStore (its own pool from a connection string)', {
  make: async (options) =>
    new PostgresSessionStore({
      connectionString: db.server.url,
      schema: freshSchema(),
      ...options,
    }),
  corrupt: corruptMemory,
  asideCount: async (store) => (store as PostgresSessionStore).asideCount(),
});

const fresh = (options: Partial<ConstructorParameters<typeof PostgresSessionStore>[0]> = {}) =>
  new PostgresSessionStore({ pool: db.admin, schema: freshSchema(), ...options });

describe('PostgresSessionStore: tables', () => {
  it('makes its tables on first use, once, with a version row, in the schema it is given', async () => {
    const store = fresh();
    expect(
      (await db.admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [store.schema]))
        .rowCount,
    ).toBe(0);
    await store.save('s1', sampleState());
    const versions = await db.admin.query(
      `SELECT part, version FROM "${store.schema}".schema_versions`,
    );
    expect(versions.rows).toEqual([{ part: 'sessions', version: 1 }]);
    const tables = await db.admin.query(
      'SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
      [store.schema],
    );
    expect(tables.rows.map((row) => row.tablename)).toEqual([
      'schema_versions',
      'sessions',
      'sessions_corrupt',
    ]);
    await store.close();
  });

  it('two stores on two pools starting at once on a new schema both succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const schema = freshSchema();
      const pools = [0, 1, 2, 3].map(() => {
        const pool = new pg.Pool({ connectionString: db.server.url, max: 2 });
        pool.on('error', () => undefined);
        return pool;
      });
      try {
        const stores = pools.map((pool) => new PostgresSessionStore({ pool, schema }));
        const saved = await Promise.all(
          stores.map((store, i) => store.save(`s${i}`, sampleState([`from ${i}`]))),
        );
        expect(saved).toEqual(stores.map(() => ({ revision: 1 })));
        expect((await stores[0]?.list())?.map((entry) => entry.sessionId)).toEqual([
          's0',
          's1',
          's2',
          's3',
        ]);
        for (const store of stores) await store.close();
      } finally {
        for (const pool of pools) await pool.end();
      }
    }
  });

  it('refuses tables of a newer version, saying what to do', async () => {
    const store = fresh();
    await store.save('s1', sampleState());
    await db.admin.query(`UPDATE "${store.schema}".schema_versions SET version = 99`);
    const later = new PostgresSessionStore({ pool: db.admin, schema: store.schema });
    const error = await rejection(later.load('s1'));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ transient: false, mayHaveWritten: false });
    expect((error as Error).message).toContain('version 99');
    expect((error as Error).message).toContain('options.schema');
    await later.close();
    await store.close();
  });

  it('a given pool stays open after close; its own pool is ended', async () => {
    const store = fresh();
    await store.save('s1', sampleState());
    await store.close();
    expect((await db.admin.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const owned = new PostgresSessionStore({
      connectionString: db.server.url,
      schema: store.schema,
    });
    expect(await owned.exists('s1')).toBe(true);
    const before = await backendsOf(owned.schema);
    expect(before).toBeGreaterThan(0);
    await owned.close();
    await vi.waitFor(async () => expect(await backendsOf(owned.schema)).toBe(0));
    expect(await rejection(owned.exists('s1'))).toBeInstanceOf(MemoryArgumentError);
  });
});

/** Connections whose last query was a store's `exists` on `schema`. */
const backendsOf = async (schema: string): Promise<number> => {
  const result = await db.admin.query(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()',
    [`SELECT updated_at FROM "${schema}".sessions%`],
  );
  return result.rows[0].n as number;
};

describe('PostgresSessionStore: options', () => {
  it('refuses a schema that is not a plain identifier, naming the option and the value', () => {
    for (const schema of [
      '',
      '1abc',
      'a-b',
      'a"b',
      'a b',
      'x'.repeat(64),
      'é',
      'a;drop',
      42,
      null,
    ]) {
      expect(() => fresh({ schema: schema as never })).toThrow(
        /options\.schema must be a plain identifier/,
      );
    }
    expect(fresh({ schema: 'A_b9' }).schema).toBe('A_b9');
  });

  it('needs exactly one of pool and connectionString, each of the right kind', () => {
    const cases: [unknown, RegExp][] = [
      [{}, /pass exactly one of options\.pool/],
      [{ pool: db.admin, connectionString: db.server.url }, /pass exactly one of options\.pool/],
      [{ pool: {} }, /options\.pool must be a pg\.Pool .*received an object/],
      [{ connectionString: '' }, /options\.connectionString must be a non-empty string/],
      [{ connectionString: 5 }, /options\.connectionString must be a non-empty string.*5/],
      [
        { url: 'postgres://x' },
        /options\.url is not an option \(did you mean connectionString\?\)/,
      ],
      [undefined, /options must be an object/],
    ];
    for (const [options, message] of cases) {
      expect(() => new PostgresSessionStore(options as never)).toThrow(message);
    }
  });
});

describe('PostgresSessionStore: search with full-text search', () => {
  it('keeps a full-text vector of the searchable messages, and uses it to find candidates', async () => {
    const store = fresh();
    await store.save('trip', sampleState(['Lisbon in May', 'the HOTEL is near']));
    const [row] = (
      await db.admin.query(`SELECT search_document::text AS d FROM "${store.schema}".sessions`)
    ).rows;
    expect(row.d).toContain("'lisbon'");
    expect(row.d).toContain("'hotel'");
    // Whole words: a piece of a word is not a candidate (as with the SQLite store's FTS5).
    expect(await store.search('lisbo')).toEqual([]);
    expect((await store.search('LISBON hotel')).map((hit) => [hit.sessionId, hit.score])).toEqual([
      ['trip', 2],
    ]);
    // Operators of tsquery syntax in a term are words like any other, never syntax.
    for (const query of ["it's", "'", '!lisbon', 'lisbon|x', '(', '&', ':*', '\\', 'a<->b']) {
      await expect(store.search(query)).resolves.toBeInstanceOf(Array);
    }
    expect((await store.search('!lisbon')).map((hit) => hit.sessionId)).toEqual([]);
    await store.close();
  });

  it('a session too large to index is still found (scanned), scored as the others', async () => {
    const store = fresh();
    const big = Array.from({ length: 40 }, (_, i) => `${`w${i}x `.repeat(8_000)} lisbon`);
    await store.save('big', sampleState(big));
    await store.save('small', sampleState(['lisbon']));
    const [row] = (
      await db.admin.query(
        `SELECT search_document IS NULL AS unindexed FROM "${store.schema}".sessions WHERE session_key = 'big'`,
      )
    ).rows;
    expect(row.unindexed).toBe(true);
    const hits = await store.search('lisbon');
    expect(hits.map((hit) => [hit.sessionId, hit.score])).toEqual([
      ['big', 40],
      ['small', 1],
    ]);
    await store.close();
  });
});

describe('PostgresSessionStore: rows changed by others', () => {
  it('a row whose memory another program rewrote (sound JSON) is decoded, then saved over', async () => {
    const store = fresh();
    await store.save('s1', sampleState(['one']));
    const other = JSON.stringify(toDict(sampleState(['from another program'])));
    await db.admin.query(`UPDATE "${store.schema}".sessions SET memory_json = $1`, [other]);
    expect((await store.load('s1'))?.state.messages[0]?.content).toBe('from another program');
    expect(await store.save('s1', sampleState(['two']), { expectedRevision: 1 })).toEqual({
      revision: 2,
    });
    expect(await store.asideCount()).toBe(0);
    await store.close();
  });

  it('a damaged row is copied aside by a delete, and damaged columns are reported by load', async () => {
    const store = fresh();
    await store.save('s1', sampleState(['one']));
    await store.save('s2', sampleState(['two']));
    await db.admin.query(
      `UPDATE "${store.schema}".sessions SET memory_json = 'not json' WHERE session_key = 's1'`,
    );
    expect(await store.delete('s1')).toBe(true);
    expect(await store.asideCount()).toBe(1);
    await db.admin.query(
      `UPDATE "${store.schema}".sessions SET session_id = 'other' WHERE session_key = 's2'`,
    );
    const error = await rejection(store.load('s2'));
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).problems.join('\n')).toContain(
      'are not the session of key "s2"',
    );
    expect(await store.list()).toEqual([]);
    await store.close();
  });
});
