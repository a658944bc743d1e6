import { randomBytes } from 'node:crypto';
import { link, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { asideFileName, isOwnTempFileName } from './fileNames';
import { type EntryRead, readRegularFile } from './readRegularFile';
import { errorCode } from './errorCode';

/**
 * A cross-process lock on one session file: the file `<session file>.lock`, created with
 * `O_CREAT | O_EXCL` (flag `wx`, atomic on local file systems and NFSv3+), holding the holder's pid,
 * host, a random token and the name of the temp file it writes.
 *
 * A lock is stale, and is broken, when its holder is dead (same host, `kill(pid, 0)` says no such
 * process) or it is older than `staleMs` (another host, or a pid reused), or it is unreadable and
 * older than a second (its holder died between creating and writing it). Breaking renames it to a
 * unique name, checks that what was renamed is the very lock judged stale (else puts it back),
 * deletes it and the dead holder's temp file: only a name of the form that holder writes for this
 * session (`<session file>.<its pid>-<12 hex>.tmp`), whatever else the lock file names. A holder
 * checks that it still holds its lock just before it commits (`held()`), so a lock broken under a
 * live holder (held over `staleMs`) costs that holder a retry, not a lost update.
 *
 * An entry at the lock's path that no holder makes (a directory, a FIFO, a symlink, a file over
 * 4 KiB) is renamed aside to `<lock>.corrupt-<ms>-<hex>` at once, kept for inspection; lock files
 * are read without following links or waiting on a FIFO.
 *
 * @example
 * ```ts
 * const lock = await acquireFileLock('/data/s1.json.lock', { deadline: Date.now() + 10_000, staleMs: 30_000, temp: 's1.json.42-0a1b2c3d4e5f.tmp' });
 * if (lock) try { if (await lock.held()) { … } } finally { await lock.release(); }
 * ```
 */
export interface FileLock {
  /** Whether the lock file is still this holder's. */
  held(): Promise<boolean>;
  /** Removes the lock file if it is still this holder's. */
  release(): Promise<void>;
}

/**
 * Options of {@link acquireFileLock}.
 *
 * @example
 * ```ts
 * const options: LockOptions = { deadline: Date.now() + 10_000, staleMs: 30_000, temp: 's1.json.42-0a1b2c3d4e5f.tmp' };
 * ```
 */
export interface LockOptions {
  /** Give up (resolve `undefined`) after this `Date.now()`; a deadline in the past tries once. */
  readonly deadline: number;
  /** A lock older than this (milliseconds) is stale whoever holds it. */
  readonly staleMs: number;
  /** The temp file the holder will write (a breaker deletes it when the holder died). */
  readonly temp?: string | undefined;
}

/** An unreadable lock older than this is one whose holder died while writing it. */
const UNWRITTEN_MS = 1000;
/**
 * The largest lock file: ours hold a few hundred bytes. Anything larger at a lock's path is not
 * a lock (and is not read).
 */
const MAX_LOCK_BYTES = 4096;
const HOST = hostname();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process with this pid exists on this host (EPERM: it exists, it is not ours). */
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
};

interface LockInfo {
  readonly pid?: unknown;
  readonly host?: unknown;
  readonly temp?: unknown;
}

const parseLock = (text: string): LockInfo | undefined => {
  try {
    const info: unknown = JSON.parse(text);
    return typeof info === 'object' && info !== null ? (info as LockInfo) : undefined;
  } catch {
    return undefined;
  }
};

/** A lock file as it is now: absent, its text and age, or an entry that is no lock at all. */
const readLock = (path: string): Promise<EntryRead> => readRegularFile(path, MAX_LOCK_BYTES);

/** The lock file's text; `undefined` when there is none (or something else is at its path). */
const lockText = async (path: string): Promise<string | undefined> => {
  const read = await readLock(path);
  return read.kind === 'text' ? read.text : undefined;
};

/**
 * Renames an entry that is no lock (a directory, a FIFO, a symlink, a huge file) away from the
 * lock's path; when what was renamed turns out to be a lock after all (the entry was replaced by
 * a holder meanwhile), it is put back.
 */
const moveForeignAside = async (path: string): Promise<void> => {
  const aside = join(dirname(path), asideFileName(basename(path)));
  try {
    await rename(path, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if ((await readLock(aside)).kind !== 'text') return;
  try {
    await link(aside, path);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  await unlinkIfThere(aside);
};

const unlinkIfThere = async (path: string): Promise<void> => {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
};

/**
 * Removes the lock file at `path` only if it still holds `text`: renamed away first (atomic), then
 * checked, and linked back if it turned out to be another holder's lock.
 */
const removeIfSame = async (path: string, text: string): Promise<void> => {
  const grave = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.gone`;
  try {
    await rename(path, grave);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await lockText(grave);
  if (moved !== text) {
    // Someone else's lock: put it back (EEXIST: a third process locked meanwhile; the holder of
    // the moved lock sees it lost it when it checks before committing).
    try {
      await link(grave, path);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
  await unlinkIfThere(grave);
};

/** Breaks the lock at `path` when it is stale; `true` when it is gone (try again at once). */
const breakIfStale = async (path: string, staleMs: number): Promise<boolean> => {
  const read = await readLock(path);
  if (read.kind === 'absent') return true;
  if (read.kind === 'foreign') {
    await moveForeignAside(path);
    return true;
  }
  const { text } = read;
  const age = Date.now() - read.mtimeMs;
  const info = parseLock(text);
  const dead =
    info !== undefined &&
    info.host === HOST &&
    typeof info.pid === 'number' &&
    Number.isSafeInteger(info.pid) &&
    info.pid > 0 &&
    !isAlive(info.pid);
  const stale = dead || age > (info === undefined ? UNWRITTEN_MS : staleMs);
  if (!stale) return false;
  await removeIfSame(path, text);
  // The dead holder's temp file, if it got that far: only a name it writes for this session.
  if (isOwnTempFileName(basename(path), info?.temp, info?.pid)) {
    await unlinkIfThere(join(dirname(path), info?.temp as string));
  }
  return true;
};

/**
 * Takes the lock at `path`, waiting with jittered exponential backoff (2 ms to 100 ms) and
 * breaking stale locks, until `options.deadline`; `undefined` when it is still held by a live
 * holder then. I/O errors other than contention reject.
 *
 * @example
 * ```ts
 * const lock = await acquireFileLock('/data/s1.json.lock', { deadline: Date.now() + 10_000, staleMs: 30_000 });
 * ```
 */
export const acquireFileLock = async (
  path: string,
  options: LockOptions,
): Promise<FileLock | undefined> => {
  const text = JSON.stringify({
    pid: process.pid,
    host: HOST,
    token: randomBytes(12).toString('hex'),
    temp: options.temp ?? null,
    since: new Date().toISOString(),
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, text, { flag: 'wx' });
      return {
        held: async () => (await lockText(path)) === text,
        // Checked, then removed: a lock is only broken under a holder that kept it past
        // staleMs, so the gap between the two cannot matter in practice.
        release: async () => {
          if ((await lockText(path)) === text) await unlinkIfThere(path);
        },
      };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (await breakIfStale(path, options.staleMs)) continue;
    const left = options.deadline - Date.now();
    if (left <= 0) return undefined;
    const backoff = Math.min(100, 2 * 2 ** Math.min(attempt, 6));
    await sleep(Math.min(left, backoff * (0.5 + Math.random() / 2)));
  }
};
