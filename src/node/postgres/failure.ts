import { isConversationMemoryError, StoreUnavailableError } from 'conversation-memory';

/**
 * What a failed PostgreSQL call becomes: the server's error replies (by SQLSTATE) and the client's
 * own failures (by Node's error code or node-postgres's message), each as a
 * `StoreUnavailableError` that says whether it may pass (`transient`) and whether a write may
 * have been applied (`mayHaveWritten`). Our own errors pass through as they are.
 */

/** Socket errors of a connection that was never made. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Socket errors of a connection that dropped with a query on it. */
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * SQLSTATEs of a connection that the server ended while a query ran (terminated by an
 * administrator or `pg_terminate_backend`, a crash of another backend, a shutdown): a write may
 * have committed just before.
 */
const ENDED = /^(?:08|57P0[12])/u;

/**
 * SQLSTATEs by which the server refuses for now, nothing done: starting up or shutting down
 * (57P03), too many connections (53300), out of memory or disk (53xxx), a serialization failure or
 * a deadlock (40001, 40P01), a lock not available (55P03), a statement or lock timeout (57014), a
 * read-only server such as a standby during a failover (25006).
 */
const REFUSED = /^(?:57P03|53\d{3}|40001|40P01|55P03|57014|25006)$/u;

/** Failures that last until the configuration changes: what is wrong, and what to do. */
const LASTING: readonly {
  readonly match: RegExp;
  readonly what: string;
  readonly remedy: string;
}[] = [
  {
    match: /^28/u,
    what: 'PostgreSQL refused the credentials (a wrong user name or password, or no pg_hba.conf entry)',
    remedy:
      "check the user and password in the connection string (postgres://user:password@host:5432/db) or the pool's configuration",
  },
  {
    match: /^3D000$/u,
    what: 'the database does not exist',
    remedy: 'create it (CREATE DATABASE) or name an existing one in the connection string',
  },
  {
    match: /^42501$/u,
    what: "the PostgreSQL user may not create or use the store's schema or tables",
    remedy:
      'grant the user CREATE on the database (or create the schema for it and grant it USAGE and CREATE), or use another user',
  },
];

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The error of a failed query or connection, as the caller should see it (see the module
 * comment).
 *
 * @param error - what node-postgres threw
 * @param api - the calling method, for the message
 * @param writes - whether the query could change the store
 * @example
 * ```ts
 * postgresFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'PostgresSessionStore.save', true).mayHaveWritten; // false
 * ```
 */
export const postgresFailure = (error: unknown, api: string, writes: boolean): unknown => {
  if (isConversationMemoryError(error) || !(error instanceof Error)) return error;
  const options = { cause: error };
  const code = textOf((error as { code?: unknown }).code) ?? '';
  // A server's reply carries a five-character SQLSTATE (and a severity).
  const sqlState = /^[0-9A-Z]{5}$/u.test(code) ? code : undefined;
  if (sqlState !== undefined) {
    const lasting = LASTING.find(({ match }) => match.test(sqlState));
    if (lasting !== undefined) {
      return new StoreUnavailableError(api, lasting.what, false, {
        ...options,
        remedy: lasting.remedy,
      });
    }
    if (ENDED.test(sqlState)) {
      return new StoreUnavailableError(
        api,
        'the connection to PostgreSQL was lost',
        writes,
        options,
      );
    }
    if (REFUSED.test(sqlState)) {
      return new StoreUnavailableError(api, 'PostgreSQL refused the query for now', false, options);
    }
    return new StoreUnavailableError(api, 'PostgreSQL answered the query with an error', false, {
      ...options,
      remedy:
        "see the server's reply (the cause): a table of the store's changed by hand, or a bug of conversation-memory to report",
    });
  }
  if (NOT_CONNECTED.has(code) || /timeout exceeded when trying to connect/iu.test(error.message)) {
    return new StoreUnavailableError(api, 'PostgreSQL is unreachable', false, options);
  }
  if (/Cannot use a pool after calling end/iu.test(error.message)) {
    return new StoreUnavailableError(api, 'the pool given as options.pool has been ended', false, {
      ...options,
      remedy: 'close the store before ending its pool, or give it a pool that is open',
    });
  }
  const lost =
    LOST_CODES.has(code) || /Connection terminated|Query read timeout/iu.test(error.message);
  return new StoreUnavailableError(
    api,
    lost ? 'the connection to PostgreSQL was lost' : 'the PostgreSQL client failed',
    writes,
    options,
  );
};
