import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';

/**
 * Fresh database paths in a temporary folder of the test file's own, removed after its tests:
 * each call of the returned function names a new file (`<n>.db`).
 *
 * @example
 * ```ts
 * const freshPath = tempDatabasePaths('cm-sqlite-');
 * const store = new SqliteSessionStore({ path: freshPath() });
 * ```
 */
export const tempDatabasePaths = (prefix: string): (() => string) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  let files = 0;
  return () => path.join(root, `${++files}.db`);
};

/**
 * Runs `work` on a second connection to a database file, as another program (the reference, a
 * hand edit) would open it, and closes it.
 *
 * @example
 * ```ts
 * withDatabaseFile(file, (db) => db.prepare('DELETE FROM event_actions WHERE version = 3').run());
 * ```
 */
export const withDatabaseFile = <T>(file: string, work: (db: Database.Database) => T): T => {
  const db = new Database(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
};
