import { mkdirSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { either as E } from 'fp-ts';
import { fromDict, type MemoryState, SessionCorruptError } from 'conversation-memory';
import { isSessionExpired, type SessionKey } from 'conversation-memory/store-kit';
import { asUnavailable, type FailurePlace } from '../environmentFailure';
import { syncDirectory } from './atomicWrite';
import { errorCode } from './errorCode';
import { acquireFileLock, type FileLock } from './fileLock';
import { asideFileName, lockFileName } from './fileNames';
import { findReferenceCopy, findSessionFile, type Found } from './findSessionFile';
import type { SessionStoreSettings } from './options';
import type { SessionRecord } from './sessionRecord';

/** `memory.messages[0].role: …` from fromDict's `messages[0].role: …`. */
const inMemory = (problem: string): string =>
  problem.startsWith('(root)') ? `memory${problem.slice('(root)'.length)}` : `memory.${problem}`;

/**
 * The JSON-file store's connection: its folder of session files, made when the store is, and the
 * operations on it that the store's methods share (finding a session's file, its lock, decoding a
 * record, moving a damaged file aside, collecting an expired one, one queue per file name).
 *
 * @example
 * ```ts
 * const folder = SessionFolder.open('JsonFileSessionStore', settings); // settings: readSessionStoreOptions(…)
 * const found = await folder.find(sessionKeyOf('s1', undefined, 'MyStore.load'), sessionFileName('s1'));
 * ```
 */
export class SessionFolder {
  /** The directory, as an absolute path. */
  readonly directory: string;
  readonly lockWaitMs: number;
  readonly maxFileBytes: number;
  readonly #store: string;
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  readonly #staleLockMs: number;
  /** One queue per file name: saves of one process wait here rather than polling the lock. */
  readonly #queues = new Map<string, Promise<void>>();

  private constructor(store: string, directory: string, settings: SessionStoreSettings) {
    this.#store = store;
    this.directory = directory;
    this.#ttl = settings.ttl;
    this.#now = settings.now;
    this.lockWaitMs = settings.lockWaitMs;
    this.#staleLockMs = settings.staleLockMs;
    this.maxFileBytes = settings.maxFileBytes;
  }

  /**
   * The folder at `directory` (absolute), created with its parents when missing.
   *
   * @throws StoreUnavailableError when it cannot be made (see `asUnavailable`)
   */
  static open(store: string, directory: string, settings: SessionStoreSettings): SessionFolder {
    try {
      mkdirSync(directory, { recursive: true });
    } catch (error) {
      throw asUnavailable(error, {
        api: `new ${store}`,
        store,
        writes: false,
        folder: { path: directory, made: false },
      });
    }
    return new SessionFolder(store, directory, settings);
  }

  /** Where a call's environment failure happened (see `asUnavailable`): this folder. */
  failurePlace(method: string, id: string | undefined, writes: boolean): FailurePlace {
    return {
      api: `${this.#store}.${method}`,
      store: this.#store,
      id,
      writes,
      folder: { path: this.directory, made: true },
    };
  }

  /** The store's clock (`sessionClockOf` checks each reading: a NaN would go into records). */
  clock(): number {
    return this.#now();
  }

  expired(record: SessionRecord): boolean {
    return isSessionExpired(record.updatedAt, this.#ttl, this.clock());
  }

  /** Runs `task` after the earlier tasks on the same file name of this store. */
  async serial<T>(name: string, task: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(name) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.#queues.set(name, tail);
    await before;
    try {
      return await task();
    } finally {
      done();
      if (this.#queues.get(name) === tail) this.#queues.delete(name);
    }
  }

  /** The session's file as it is now (see {@link findSessionFile}). */
  find(where: SessionKey, name: string): Promise<Found> {
    return findSessionFile(this.directory, where, name, this.maxFileBytes);
  }

  /** The file the reference wrote for the key under its own name, when that name differs. */
  findReferenceCopy(where: SessionKey): Promise<Found> {
    return findReferenceCopy(this.directory, where, this.maxFileBytes);
  }

  /**
   * Decodes a record's memory: with its own tokenizer (`full`), or cheaply only to validate it.
   * A bad memory is a `SessionCorruptError`; a tokenizer this runtime cannot use rejects with
   * fromDict's own `MemoryDecodeError` (kind `'tokenizer'`: the file is fine).
   */
  decode(api: string, path: string, record: SessionRecord, full: boolean): MemoryState {
    const decoded = full
      ? fromDict(record.memory)
      : fromDict(record.memory, { tokenizer: 'heuristic' });
    if (E.isRight(decoded)) return decoded.right;
    if (decoded.left.kind === 'tokenizer') throw decoded.left;
    throw new SessionCorruptError(
      api,
      record.where.key,
      path,
      decoded.left.problems.map(inMemory),
      {
        cause: decoded.left,
      },
    );
  }

  /** Rejects with the `SessionCorruptError` of a damaged file. */
  corrupt(api: string, where: SessionKey, found: Found & { kind: 'corrupt' }): never {
    throw new SessionCorruptError(api, where.key, found.path, found.problems, {
      cause: found.cause,
    });
  }

  /** Whether what was found is damaged: a corrupt file, or a record whose memory does not decode. */
  damaged(api: string, found: Found): boolean {
    if (found.kind !== 'record') return found.kind === 'corrupt';
    try {
      this.decode(api, found.path, found.record, false);
      return false;
    } catch (error) {
      if (error instanceof SessionCorruptError) return true;
      throw error;
    }
  }

  /** Removes what was found: a damaged file is renamed aside, a sound one deleted. */
  async discard(api: string, found: Found & { kind: 'corrupt' | 'record' }): Promise<void> {
    if (this.damaged(api, found)) {
      await this.moveAside(found.path);
      return;
    }
    try {
      await unlink(found.path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }

  /** Takes the lock of file `name`, waiting until `deadline` (`undefined`: not in time). */
  lock(name: string, deadline: number, temp?: string): Promise<FileLock | undefined> {
    return acquireFileLock(join(this.directory, lockFileName(name)), {
      deadline,
      staleMs: this.#staleLockMs,
      temp,
    });
  }

  /** Renames a damaged entry to `<name>.corrupt-<ms>-<random>`, kept for inspection. */
  async moveAside(path: string): Promise<void> {
    await rename(path, join(this.directory, asideFileName(basename(path))));
  }

  /** Removes the reference's copy of the key (after a save or delete of ours). */
  async dropReferenceCopy(api: string, where: SessionKey): Promise<void> {
    const found = await this.findReferenceCopy(where);
    if (found.kind !== 'absent') await this.discard(api, found);
  }

  /**
   * Deletes an expired session met by a read (or by `sweep`), if its lock is free and it is
   * still expired; `true` when it deleted it.
   */
  async collect(where: SessionKey, name: string): Promise<boolean> {
    try {
      const lock = await this.lock(name, 0);
      if (lock === undefined) return false;
      try {
        const found = await this.find(where, name);
        if (found.kind !== 'record' || !this.expired(found.record)) return false;
        if (this.damaged('collect', found) || !(await lock.held())) return false;
        await unlink(found.path);
        await syncDirectory(this.directory);
        return true;
      } finally {
        await lock.release();
      }
    } catch {
      // Garbage collection only: a read-only directory or a race leaves the expired file, which
      // stays invisible and is collected (or overwritten) later.
      return false;
    }
  }

  /** The live revision now, read without the lock (for the error of a save that timed out). */
  async revisionNow(where: SessionKey, name: string): Promise<number> {
    const found = await this.find(where, name);
    return found.kind === 'record' && !this.expired(found.record) ? found.record.revision : 0;
  }
}
