import { loadPg } from './loadPg';
import { postgresFailure } from './failure';
import type { PostgresConnectionRead } from './options';
import { type PostgresPool, type PostgresPoolClient, RAW_TYPES } from './pool';
import { ensureSchema, quoteIdentifier, type SchemaPart } from './schema';

/**
 * A row as the server sent it: every column the server's text (see `RAW_TYPES`) or `null`, and
 * nothing trusted.
 *
 * @example
 * ```ts
 * const row: PostgresRow = { revision: '3', updated_at: '1764500000.25' };
 * ```
 */
export type PostgresRow = Readonly<Record<string, unknown>>;

/**
 * Sends one query: `text` with `$1`, `$2`, … and their `values`.
 *
 * @example
 * ```ts
 * const rows = await send('SELECT $1::int AS n', [1]);
 * ```
 */
export type PostgresSend = (
  text: string,
  values: readonly unknown[],
) => Promise<readonly PostgresRow[]>;

const ignore = (): void => undefined;

/** How long an owned pool waits for a new connection before the call fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A store's line to PostgreSQL: the application's pool (used, never ended) or one made from the
 * connection string on construction (ended by `close()`; `pg` is loaded only then). Every
 * failure to reach or hear from the server becomes a `StoreUnavailableError`
 * (`postgresFailure`), and the tables of each part are made on its first use (`ensureSchema`).
 *
 * @example
 * ```ts
 * const connection = new PostgresConnection({ source: { pool }, schema: 'conversation_memory' }, 'PostgresSessionStore');
 * await connection.ready(SESSION_SCHEMA, 'PostgresSessionStore.load');
 * const rows = await connection.query('PostgresSessionStore.load', false, 'SELECT 1 AS one', []);
 * ```
 */
export class PostgresConnection {
  /** The schema's name as given, and quoted for SQL text. */
  readonly schema: string;
  readonly quotedSchema: string;
  readonly #pool: PostgresPool;
  readonly #end: (() => Promise<void>) | undefined;
  readonly #ready = new Map<string, Promise<void>>();
  #ended = false;

  constructor(read: PostgresConnectionRead, api: string) {
    this.schema = read.schema;
    this.quotedSchema = quoteIdentifier(read.schema);
    if ('pool' in read.source) {
      this.#pool = read.source.pool;
      this.#end = undefined;
    } else {
      const Pool = loadPg(api);
      const pool = new Pool({
        connectionString: read.source.connectionString,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      // An idle connection that the server ends (a restart) is reported here; the next query
      // gets a new one, or fails with StoreUnavailableError.
      pool.on('error', ignore);
      this.#pool = pool;
      this.#end = () => pool.end();
    }
  }

  /** Makes the tables of `part` once (again after a failure), before its first query. */
  async ready(part: SchemaPart, api: string): Promise<void> {
    let made = this.#ready.get(part.name);
    if (made === undefined) {
      made = ensureSchema((run) => this.transaction(api, true, run), this.quotedSchema, part, api);
      this.#ready.set(part.name, made);
      made.catch(() => this.#ready.delete(part.name));
    }
    await made;
  }

  /** One statement on any connection of the pool; its failure as `postgresFailure` says. */
  async query(
    api: string,
    writes: boolean,
    text: string,
    values: readonly unknown[],
  ): Promise<readonly PostgresRow[]> {
    try {
      const result = await this.#pool.query({ text, values, types: RAW_TYPES });
      return result.rows as readonly PostgresRow[];
    } catch (error) {
      throw postgresFailure(error, api, writes);
    }
  }

  /**
   * `run` inside `BEGIN` … `COMMIT` on one connection, rolled back when it throws. A connection
   * that failed is closed rather than returned to the pool.
   */
  async transaction<T>(
    api: string,
    writes: boolean,
    run: (send: PostgresSend) => Promise<T>,
    begin = 'BEGIN',
  ) {
    let client: PostgresPoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw postgresFailure(error, api, false);
    }
    client.on?.('error', ignore);
    const send: PostgresSend = async (text, values) =>
      (await client.query({ text, values, types: RAW_TYPES })).rows as readonly PostgresRow[];
    let broken: Error | undefined;
    try {
      await send(begin, []);
      const value = await run(send);
      await send('COMMIT', []);
      return value;
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      await send('ROLLBACK', []).catch(ignore);
      throw postgresFailure(error, api, writes);
    } finally {
      // A broken connection keeps its listener (see `listen`): it is destroyed, not pooled.
      if (broken === undefined) client.off?.('error', ignore);
      client.release(broken);
    }
  }

  /**
   * A connection of its own that listens on `channel` (`LISTEN`): `onPayload` is called with each
   * notification's payload, `onError` when the connection fails. `close` stops listening and gives
   * the connection back (closing it when it failed).
   */
  async listen(
    api: string,
    channel: string,
    onPayload: (payload: unknown) => void,
    onError: (error: unknown) => void,
  ): Promise<{ close(): Promise<void> }> {
    let client: PostgresPoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw postgresFailure(error, api, false);
    }
    let failed: Error | undefined;
    const notified = (message: unknown) => {
      const { channel: on, payload } = (message ?? {}) as { channel?: unknown; payload?: unknown };
      if (on === channel) onPayload(payload);
    };
    const errored = (error: unknown) => {
      failed = error instanceof Error ? error : new Error(String(error));
      onError(postgresFailure(error, api, false));
    };
    client.on?.('notification', notified);
    client.on?.('error', errored);
    const close = async () => {
      client.off?.('notification', notified);
      if (failed === undefined) {
        await client.query({ text: 'UNLISTEN *', values: [], types: RAW_TYPES }).catch(ignore);
      }
      // A failed connection is destroyed, and may still report the server's goodbye (57P01,
      // "terminating connection"): it keeps a listener for good, or that event would be an
      // uncaught exception in the application. A sound one goes back to the pool, which listens.
      if (failed !== undefined) client.on?.('error', ignore);
      client.off?.('error', errored);
      client.release(failed ?? undefined);
    };
    try {
      await client.query({
        text: `LISTEN ${quoteIdentifier(channel)}`,
        values: [],
        types: RAW_TYPES,
      });
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      await close();
      throw postgresFailure(error, api, false);
    }
    return { close };
  }

  /** Ends the pool the store made; a pool given as `options.pool` stays open. */
  async close(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.#end?.();
  }
}
