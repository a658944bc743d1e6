import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { MemoryArgumentError } from 'conversation-memory';

/**
 * The better-sqlite3 `Database` constructor (a type only: nothing is loaded by this import).
 *
 * @example
 * ```ts
 * const Database: DatabaseConstructor = loadBetterSqlite3('SqliteSessionStore');
 * ```
 */
export type DatabaseConstructor = typeof BetterSqlite3;

let loaded: DatabaseConstructor | undefined;

/**
 * A `require` resolving from this file (not from the working directory), so that it finds the peer
 * where the package manager put it, beside this package. Both builds have `import.meta.url` (the
 * CommonJS one through tsup's shim); a bare `require` would not do: the ES module build turns it
 * into a stub that throws.
 */
const requireHere = (): NodeJS.Require => createRequire(import.meta.url);

/**
 * Loads better-sqlite3, the optional peer of the SQLite store, when a store is made (never when
 * the `conversation-memory/node` entry is imported), so that users of the other stores do
 * not need it installed.
 *
 * @param api - the caller, for the error
 * @returns the `Database` constructor
 * @throws MemoryArgumentError saying how to install it, when it cannot be loaded
 * @example
 * ```ts
 * const Database = loadBetterSqlite3('SqliteSessionStore');
 * const db = new Database('sessions.db');
 * ```
 */
export const loadBetterSqlite3 = (api: string): DatabaseConstructor => {
  if (loaded !== undefined) return loaded;
  let module: unknown;
  try {
    module = requireHere()('better-sqlite3');
  } catch (error) {
    throw new MemoryArgumentError(
      api,
      'needs the optional peer dependency better-sqlite3 (12.x), which could not be loaded: install it with `npm install better-sqlite3`',
      { cause: error },
    );
  }
  const candidate = (module as { default?: unknown }).default ?? module;
  if (typeof candidate !== 'function') {
    throw new MemoryArgumentError(
      api,
      'the better-sqlite3 module does not export a Database constructor: install better-sqlite3 12.x',
    );
  }
  loaded = candidate as DatabaseConstructor;
  return loaded;
};
