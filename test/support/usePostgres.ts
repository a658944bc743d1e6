import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type PostgresTestServer, startPostgresServer } from './postgresServer';

/**
 * A test file's PostgreSQL: the server it starts (test/support/postgresServer.ts), an `admin` pool
 * for looking at and damaging tables as another program would, and fresh schemas and pools, all
 * made in `beforeAll` and ended in `afterAll` (pools first, then the server). Every pool listens
 * for `'error'`, as node-postgres asks of an application (an idle connection that the server ends
 * is reported there).
 *
 * @example
 * ```ts
 * const db = usePostgres('cm_events_');
 * it('…', async () => {
 *   const store = new PostgresEventStore({ pool: db.admin, schema: db.freshSchema() });
 * });
 * ```
 */
export interface PostgresFixture {
  /** The server (started by `beforeAll`; reading it before then throws). */
  readonly server: PostgresTestServer;
  /** A pool of 4 connections, for the tests' own queries. */
  readonly admin: pg.Pool;
  /** A schema name no other test of the file uses (`<prefix><n>`). */
  freshSchema(): string;
  /** A new pool of `max` connections, ended in `afterAll`. */
  pool(max?: number): pg.Pool;
}

/**
 * Starts a PostgreSQL for the calling test file (see {@link PostgresFixture}). Call it at the top
 * level of the file.
 *
 * @param prefix - the schemas' prefix (a plain identifier)
 */
export const usePostgres = (prefix: string): PostgresFixture => {
  let server: PostgresTestServer | undefined;
  const pools: pg.Pool[] = [];
  let counter = 0;
  const fixture: PostgresFixture = {
    get server() {
      if (server === undefined) throw new Error('the PostgreSQL server has not started');
      return server;
    },
    get admin() {
      const admin = pools[0];
      if (admin === undefined) throw new Error('the PostgreSQL server has not started');
      return admin;
    },
    freshSchema: () => `${prefix}${++counter}`,
    pool: (max = 4) => {
      const pool = new pg.Pool({ connectionString: fixture.server.url, max });
      pool.on('error', () => undefined);
      pools.push(pool);
      return pool;
    },
  };
  beforeAll(async () => {
    server = await startPostgresServer();
    fixture.pool(4);
  }, 60_000);
  afterAll(async () => {
    for (const pool of pools.splice(0)) await pool.end().catch(() => undefined);
    await server?.stop();
  });
  return fixture;
};

/**
 * Runs `body` while `server` is stopped (a fast shutdown: connections refused), and starts it
 * again afterwards, whether `body` threw or not.
 *
 * @example
 * ```ts
 * await whileHalted(db.server, async () => {
 *   await expect(store.load('s1')).rejects.toBeInstanceOf(StoreUnavailableError);
 * });
 * ```
 */
export const whileHalted = async <T>(
  server: PostgresTestServer,
  body: () => Promise<T>,
): Promise<T> => {
  await server.halt();
  try {
    return await body();
  } finally {
    await server.restart();
  }
};
