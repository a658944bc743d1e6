import { createRequire } from 'node:module';
import { MemoryArgumentError } from 'conversation-memory';
import type { PostgresPool } from './pool';

/**
 * The `pg.Pool` constructor, as the stores use it (a structural type: nothing is loaded by this
 * import, and the declarations do not need `@types/pg`).
 *
 * @example
 * ```ts
 * const Pool: PoolConstructor = loadPg('PostgresSessionStore');
 * ```
 */
export type PoolConstructor = new (config: {
  readonly connectionString: string;
  readonly connectionTimeoutMillis?: number;
}) => PostgresPool & {
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
};

let loaded: PoolConstructor | undefined;

/** A `require` resolving from this file, so that it finds the peer beside this package. */
const requireHere = (): NodeJS.Require => createRequire(import.meta.url);

/**
 * Loads `pg` (node-postgres), the optional peer of the Postgres stores, when a store makes its
 * own pool from a connection string (never when `conversation-memory/node` is imported, nor
 * when the application passes its own pool), so that users of the other stores need not install
 * it.
 *
 * @param api - the caller, for the error
 * @returns the `Pool` constructor
 * @throws MemoryArgumentError saying how to install it, when it cannot be loaded
 * @example
 * ```ts
 * const Pool = loadPg('PostgresSessionStore');
 * const pool = new Pool({ connectionString: 'postgres://localhost/app' });
 * ```
 */
export const loadPg = (api: string): PoolConstructor => {
  if (loaded !== undefined) return loaded;
  let module: unknown;
  try {
    module = requireHere()('pg');
  } catch (error) {
    throw new MemoryArgumentError(
      api,
      'needs the optional peer dependency pg (node-postgres 8.11 or later 8.x) to connect from options.connectionString, and it could not be loaded: install it with `npm install pg`, or pass your own pool as options.pool',
      { cause: error },
    );
  }
  const candidate =
    (module as { Pool?: unknown }).Pool ??
    (module as { default?: { Pool?: unknown } }).default?.Pool;
  if (typeof candidate !== 'function') {
    throw new MemoryArgumentError(
      api,
      'the pg module does not export a Pool constructor: install pg 8.x (`npm install pg`)',
    );
  }
  loaded = candidate as PoolConstructor;
  return loaded;
};
