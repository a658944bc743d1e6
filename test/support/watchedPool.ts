import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQuery } from 'conversation-memory/node';

/**
 * A statement a store sends through a {@link watchedPool}: its text, and the connection's server
 * process id when it is sent on a connection of its own (a transaction), `undefined` for a
 * statement on any connection of the pool.
 *
 * @example
 * ```ts
 * const sent: SentStatement = { text: 'BEGIN', pid: 4242 };
 * ```
 */
export interface SentStatement {
  readonly text: string;
  readonly pid: number | undefined;
}

/**
 * What a test does around each statement a store sends: `before` may delay it, run statements of
 * its own on another pool, terminate the connection it goes on (a kill between statements) or
 * throw (the statement is not sent: the store sees a failure); `after` looks at what is committed
 * once it was answered. Both default to nothing.
 *
 * @example
 * ```ts
 * const hooks: StatementHooks = { after: async () => void counts.push(await countRows()) };
 * ```
 */
export interface StatementHooks {
  readonly before?: (sent: SentStatement) => Promise<void>;
  readonly after?: (sent: SentStatement) => Promise<void>;
}

/**
 * The real `pool` as a store's `options.pool`, with `hooks` around every statement the store
 * sends (its single statements and those of its transactions): a seam for tests that watch a
 * sweep land batch by batch, or kill a prune between two of its statements. Nothing is mocked:
 * every statement goes to the real server.
 *
 * @example
 * ```ts
 * const store = new PostgresSessionStore({ pool: watchedPool(admin, { after }), schema });
 * ```
 */
export const watchedPool = (pool: pg.Pool, hooks: StatementHooks): PostgresPool => {
  const around = async (sent: SentStatement, send: () => Promise<unknown>) => {
    await hooks.before?.(sent);
    const result = await send();
    await hooks.after?.(sent);
    return result as { rows: unknown[] };
  };
  return {
    query: async (query: PostgresQuery) =>
      around({ text: query.text, pid: undefined }, async () => pool.query(query as never)),
    connect: async (): Promise<PostgresPoolClient> => {
      const client = await pool.connect();
      const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      return {
        query: async (query: PostgresQuery) =>
          around({ text: query.text, pid }, async () => client.query(query as never)),
        release: (error?: Error | boolean) => client.release(error),
        on: (event, listener) => client.on(event as 'error', listener as never),
        off: (event, listener) => client.off(event as 'error', listener as never),
      };
    },
  };
};
