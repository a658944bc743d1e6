import { StoreUnavailableError } from 'conversation-memory';
import type { PostgresSend } from './connection';

/**
 * The Postgres stores' tables: each store's part (`sessions`, `events`, `knowledge`) lists its
 * statements, all idempotent (`IF NOT EXISTS`), and its version, kept in the schema's
 * `schema_versions` table (one row per part). Tables of an older version are brought up to date
 * by the part's `upgrades` before its statements run.
 */

/**
 * One part of the schema: its name (its row in `schema_versions`), its version, the statements
 * that make its tables in the quoted schema `s`, and `upgrades[v]`: the statements that bring
 * tables of version `v - 1` to version `v` (run once, in order, before `statements`).
 *
 * @example
 * ```ts
 * const part: SchemaPart = {
 *   name: 'sessions',
 *   version: 2,
 *   statements: (s) => [`CREATE TABLE IF NOT EXISTS ${s}.t (n int, m int)`],
 *   upgrades: { 2: (s) => [`ALTER TABLE ${s}.t ADD COLUMN IF NOT EXISTS m int`] },
 * };
 * ```
 */
export interface SchemaPart {
  readonly name: string;
  readonly version: number;
  readonly statements: (schema: string) => readonly string[];
  readonly upgrades?: Readonly<Record<number, (schema: string) => readonly string[]>>;
}

/**
 * An identifier quoted for SQL text. The stores only quote names their option readers checked
 * (letters, digits and `_`), and double any `"` all the same.
 *
 * @example
 * ```ts
 * quoteIdentifier('conversation_memory'); // '"conversation_memory"'
 * ```
 */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Makes the schema, the `schema_versions` table and `part`'s tables, in one transaction under a
 * transaction-level advisory lock on the schema's name: two processes starting at once wait for
 * each other instead of failing on a duplicate name. Tables of an older version are upgraded first
 * (`part.upgrades`, then the version row), in the same transaction. Refuses tables of a newer
 * version than this library knows.
 *
 * @param transaction - runs its argument inside a transaction
 * @param schema - the schema, quoted
 * @param part - the part to make
 * @param api - the caller, for errors
 * @throws StoreUnavailableError when the tables are of a newer version (`transient: false`)
 * @example
 * ```ts
 * await ensureSchema((run) => connection.transaction(api, true, run), '"conversation_memory"', SESSION_SCHEMA, api);
 * ```
 */
export const ensureSchema = async (
  transaction: <T>(run: (send: PostgresSend) => Promise<T>) => Promise<T>,
  schema: string,
  part: SchemaPart,
  api: string,
): Promise<void> => {
  const found = await transaction(async (send) => {
    await send('SELECT pg_advisory_xact_lock(hashtext($1))', [`conversation-memory:${schema}`]);
    await send(`CREATE SCHEMA IF NOT EXISTS ${schema}`, []);
    await send(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_versions (part text PRIMARY KEY, version integer NOT NULL)`,
      [],
    );
    const versionOf = async () => {
      const rows = await send(`SELECT version FROM ${schema}.schema_versions WHERE part = $1`, [
        part.name,
      ]);
      return rows[0] === undefined ? undefined : Number(rows[0]['version']);
    };
    const stored = await versionOf();
    if (stored !== undefined && Number.isSafeInteger(stored) && stored < part.version) {
      for (let version = stored + 1; version <= part.version; version++) {
        for (const statement of part.upgrades?.[version]?.(schema) ?? []) await send(statement, []);
      }
      await send(`UPDATE ${schema}.schema_versions SET version = $2 WHERE part = $1`, [
        part.name,
        part.version,
      ]);
    }
    if (stored === undefined || stored <= part.version) {
      for (const statement of part.statements(schema)) await send(statement, []);
    }
    await send(
      `INSERT INTO ${schema}.schema_versions (part, version) VALUES ($1, $2) ON CONFLICT (part) DO NOTHING`,
      [part.name, part.version],
    );
    return (await versionOf()) ?? Number.NaN;
  });
  if (!(Number.isSafeInteger(found) && found <= part.version)) {
    throw new StoreUnavailableError(
      api,
      `the ${part.name} tables in schema ${schema} are of version ${String(found)}, and this version of conversation-memory knows version ${part.version} at most`,
      false,
      {
        remedy:
          'upgrade conversation-memory to the version that wrote them, or give this store another schema (options.schema)',
      },
    );
  }
};
