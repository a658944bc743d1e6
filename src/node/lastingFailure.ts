import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A failure of a store's place that lasts until someone changes it (a path that names a file, a
 * folder that does not exist, no permission, a file that is not a SQLite database): why, as a
 * clause about the place (`it is a file, not a folder`), and what to do, said instead of "try
 * again later" (`StoreUnavailableError`'s `remedy`).
 *
 * @example
 * ```ts
 * const failure: LastingFailure = {
 *   reason: 'it is a file, not a folder',
 *   remedy: 'pass the path of a folder (the store creates a missing one when it is made)',
 * };
 * ```
 */
export interface LastingFailure {
  readonly reason: string;
  readonly remedy: string;
}

/** What is at a path now (`missing` also when a folder above it is a file). */
type PathKind = 'folder' | 'file' | 'other' | 'missing' | 'unknown';

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const kindOf = (path: string): PathKind => {
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) return 'folder';
    return stats.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
  }
};

/** The nearest folder or file above `path` that exists (the root at most), with its kind. */
const existingAbove = (path: string): { readonly path: string; readonly kind: PathKind } => {
  for (let at = dirname(path); ; at = dirname(at)) {
    const kind = kindOf(at);
    if (kind !== 'missing' || dirname(at) === at) return { path: at, kind };
  }
};

/** A path in a message: quoted, with control characters escaped, never shortened. */
export const quotePath = (path: string): string => JSON.stringify(path);

const notAFolder = (kind: PathKind): string =>
  kind === 'file' ? 'a file, not a folder' : 'not a folder (a socket, a device or a pipe)';

/** A path above the place that is a file, so nothing can be made under it. */
const underAFile = (path: string): LastingFailure | undefined => {
  const above = existingAbove(path);
  if (above.kind !== 'file' && above.kind !== 'other') return undefined;
  return {
    reason: `${quotePath(above.path)} is ${notAFolder(above.kind)}`,
    remedy: 'pass a path under a folder',
  };
};

const PERMISSION = /^(?:EACCES|EPERM|EROFS|SQLITE_(?:READONLY|PERM|AUTH|CANTOPEN))/u;

/**
 * What lasts in a failure of a JSON file store's folder, found by looking at the folder now: it
 * is a file; a folder above it is a file; it does not exist (it was removed after the store was
 * made: the store creates it only then); the process may not use it (`EACCES`, `EPERM`) or its
 * file system is read-only (`EROFS`). `undefined` for anything else (a full disk, too many open
 * files: they may pass).
 *
 * @param folder - the store's folder (absolute)
 * @param error - what the file system threw
 * @param made - `false` while the store is being made (and creates the folder)
 * @example
 * ```ts
 * folderFailure('/srv/sessions', enotdir, true);
 * // { reason: '"/srv" is a file, not a folder', remedy: 'pass a path under a folder' }
 * ```
 */
export const folderFailure = (
  folder: string,
  error: unknown,
  made: boolean,
): LastingFailure | undefined => {
  const kind = kindOf(folder);
  if (kind === 'file' || kind === 'other') {
    return {
      reason: `it is ${notAFolder(kind)}`,
      remedy: 'pass the path of a folder (the store creates a missing one when it is made)',
    };
  }
  if (kind === 'missing') {
    const blocked = underAFile(folder);
    if (blocked !== undefined) return blocked;
    if (made) {
      return {
        reason: 'it no longer exists, and the store creates its folder only when it is made',
        remedy: 'create the folder again, or make a new store (which creates it)',
      };
    }
  }
  const code = codeOf(error);
  if (code === 'EROFS') {
    return {
      reason: 'it is on a read-only file system',
      remedy: 'pass a folder on a writable file system',
    };
  }
  if (code !== undefined && PERMISSION.test(code)) {
    return {
      reason: `this process may not ${kind === 'missing' ? 'create' : 'read or write'} it (permission denied)`,
      remedy:
        kind === 'missing'
          ? 'create the folder and give this process read and write access to it, or pass another folder'
          : 'give this process read and write access to the folder (its owner, mode or ACL), or pass another folder',
    };
  }
  return undefined;
};

/**
 * When the failure happened: opening the file (`open`), preparing its tables and statements
 * (`prepare`: an error there that is not the environment's means the file holds another
 * program's tables), or a later call (`use`).
 */
export type DatabasePhase = 'open' | 'prepare' | 'use';

/**
 * What lasts in a failure of a SQLite store's database file, found by looking at the path now and
 * at the SQLite code: the path is a folder; a folder above it is a file; its folder does not
 * exist (the store creates the file, not its folder); the file is not a SQLite database
 * (`SQLITE_NOTADB`); it is damaged (`SQLITE_CORRUPT`); the process may not write it or its folder
 * (`SQLITE_READONLY`, `SQLITE_CANTOPEN`, `EACCES`, …); it holds another program's tables under
 * the store's names (an error while preparing). `undefined` for anything else (a lock, an I/O
 * error, a full disk: they may pass) and for `:memory:`.
 *
 * @param file - the database file's path, as given
 * @param error - what better-sqlite3 threw
 * @param phase - when (see {@link DatabasePhase})
 * @example
 * ```ts
 * databaseFailure('notes.txt', notadb, 'prepare');
 * // { reason: 'it is not a SQLite database', remedy: 'pass the path of a database this store made, …' }
 * ```
 */
export const databaseFailure = (
  file: string,
  error: unknown,
  phase: DatabasePhase,
): LastingFailure | undefined => {
  if (file === ':memory:' || file === '') return undefined;
  const code = codeOf(error) ?? '';
  const kind = kindOf(file);
  const another =
    'pass the path of a database this store made, or of a new file (the store creates it); the file was left as it is';
  if (kind === 'folder' || kind === 'other') {
    return {
      reason: `it is ${kind === 'folder' ? 'a folder' : 'a socket, a device or a pipe'}, not a file`,
      remedy: 'pass the path of a file (the store creates a missing one)',
    };
  }
  if (kind === 'missing') {
    const blocked = underAFile(file);
    if (blocked !== undefined) return blocked;
    const folder = dirname(file);
    if (kindOf(folder) === 'missing') {
      return {
        reason: `its folder ${quotePath(folder)} does not exist, and the store creates the database file but not its folder`,
        remedy: 'create the folder, or pass a path in an existing one',
      };
    }
  }
  if (code.startsWith('SQLITE_NOTADB')) {
    return { reason: 'it is not a SQLite database', remedy: another };
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return {
      reason: 'the database is damaged',
      remedy:
        "restore it from a backup, or recover what it holds with the sqlite3 shell's .recover command; the file was left as it is",
    };
  }
  if (code.startsWith('SQLITE_FULL') || code.startsWith('SQLITE_IOERR')) return undefined;
  if (PERMISSION.test(code)) {
    return {
      reason: `this process may not ${kind === 'missing' ? 'create' : 'write'} it, or may not write its folder, where SQLite keeps its -wal and -shm files (permission denied, or a read-only file system)`,
      remedy: 'give this process write access to the file and its folder, or pass another path',
    };
  }
  if (phase === 'prepare' && code.startsWith('SQLITE_') && !/^SQLITE_(BUSY|LOCKED)/u.test(code)) {
    return {
      reason:
        'it holds tables of another program, or of another version, under the names this store uses',
      remedy: another,
    };
  }
  return undefined;
};
