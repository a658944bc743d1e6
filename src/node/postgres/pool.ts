/**
 * The parts of node-postgres (`pg`) the Postgres stores use, as structural types: an
 * application's `pg.Pool` fits them, and the stores' declarations need neither `pg` nor
 * `@types/pg` installed.
 */

/**
 * One query as the stores send it: parameters only (`$1`, `$2`, …), never values spliced into
 * the text, and `types` that hand every column back as the server's text, whatever parsers the
 * application set on its `pg`.
 *
 * @example
 * ```ts
 * const query: PostgresQuery = { text: 'SELECT $1::int AS n', values: [1], types: RAW_TYPES };
 * ```
 */
export interface PostgresQuery {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

/**
 * What a query resolves to: its rows (nothing in them is trusted; each store decodes them).
 *
 * @example
 * ```ts
 * const result: PostgresResult = { rows: [{ n: '1' }] };
 * ```
 */
export interface PostgresResult {
  readonly rows: readonly unknown[];
}

/**
 * A client checked out of a pool, for a transaction (`BEGIN` … `COMMIT` on one connection).
 *
 * @example
 * ```ts
 * const client: PostgresPoolClient = await pool.connect();
 * try { await client.query({ text: 'SELECT 1', values: [], types: RAW_TYPES }); } finally { client.release(); }
 * ```
 */
export interface PostgresPoolClient {
  query(query: PostgresQuery): Promise<PostgresResult>;
  /** Back to the pool; with an error, the connection is closed instead (it may be broken). */
  release(error?: Error | boolean): void;
  /** `'error'`: the connection failed; `'notification'`: a `NOTIFY` on a channel it listens to. */
  on?(event: 'error' | 'notification', listener: (value: unknown) => void): unknown;
  off?(event: 'error' | 'notification', listener: (value: unknown) => void): unknown;
}

/**
 * A `pg.Pool` (node-postgres 8.11 or later 8.x), or anything with its `query` and `connect`.
 * A pool given to a store stays the application's: the store never ends it.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * ```
 */
export interface PostgresPool {
  query(query: PostgresQuery): Promise<PostgresResult>;
  connect(): Promise<PostgresPoolClient>;
}

/**
 * Column parsers that keep the server's text for every type (`bigint` stays `'12'`, `float8`
 * `'1764500000.25'`), so that what a row holds never depends on the application's `pg.types`.
 *
 * @example
 * ```ts
 * RAW_TYPES.getTypeParser(20)('12'); // '12'
 * ```
 */
export const RAW_TYPES: PostgresQuery['types'] = Object.freeze({
  getTypeParser: () => (value: string) => value,
});
