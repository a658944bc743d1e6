import { asUnavailable, type FailurePlace, unavailableOnFailure } from '../environmentFailure';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, rename, unlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { constants as bufferConstants } from 'node:buffer';
import { either as E } from 'fp-ts';
import {
  fromDict,
  type LoadedSession,
  MemoryArgumentError,
  type MemoryState,
  type SavedSession,
  type SaveOptions,
  type SearchOptions,
  SessionConflictError,
  SessionCorruptError,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  type SessionStoreOptions,
  toDict,
} from 'conversation-memory';
import {
  checkExpectedRevision,
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  isSessionExpired,
  namespaceOf,
  rankSearchResults,
  scoreSessionMessages,
  searchLimitOf,
  type SessionKey,
  sessionAddressOf,
  sessionKeyOf,
  sessionClockOf,
  sessionTtlOf,
  searchTerms,
  readOptionFields,
  checkSessionOptions,
} from 'conversation-memory/store-kit';
import { syncDirectory, writeFileAtomic } from './atomicWrite';
import { acquireFileLock, type FileLock } from './fileLock';
import {
  asideFileName,
  lockFileName,
  referenceFileName,
  SESSION_FILE_SUFFIX,
  sessionFileName,
  tempFileName,
} from './fileNames';
import { findReferenceCopy, findSessionFile, type Found, type Occupant } from './findSessionFile';
import { moveWithoutOverwriting } from './moveWithoutOverwriting';
import { DEFAULT_MAX_FILE_BYTES, readRegularFile } from './readRegularFile';
import { readSessionRecord, type SessionRecord, writeSessionRecord } from './sessionRecord';
import { errorCode } from './errorCode';

/**
 * Options of {@link JsonFileSessionStore}.
 *
 * @example
 * ```ts
 * const options: JsonFileSessionStoreOptions = { directory: './sessions', defaultTtl: 86_400 };
 * ```
 */
export interface JsonFileSessionStoreOptions extends SessionStoreOptions {
  /**
   * The directory of session files; created (with its parents) when missing as the store is made.
   * One removed later is not made again: calls then reject with `StoreUnavailableError` saying so.
   */
  readonly directory: string;
  /** How long a save (or delete) waits for another process's lock, in ms (default 10,000). */
  readonly lockWaitMs?: number | undefined;
  /** A lock older than this (ms) is broken even if its holder seems alive (default 30,000). */
  readonly staleLockMs?: number | undefined;
  /**
   * The largest session file read or written, in bytes (default 128 MiB; at most 536,870,888,
   * Node's longest string). A larger file is corrupt to this store (not read); a save that
   * would write one is refused with `MemoryArgumentError`.
   */
  readonly maxFileBytes?: number | undefined;
}

interface Live {
  readonly record: SessionRecord;
  readonly state: MemoryState;
}

const API = 'JsonFileSessionStore';

/** `memory.messages[0].role: …` from fromDict's `messages[0].role: …`. */
const inMemory = (problem: string): string =>
  problem.startsWith('(root)') ? `memory${problem.slice('(root)'.length)}` : `memory.${problem}`;

const positiveMs = (value: unknown, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new MemoryArgumentError(
      API,
      `options.${name} must be a number of milliseconds ≥ 0, received ${String(value)}`,
    );
  }
  return value;
};

const fileBytes = (value: unknown): number => {
  if (value === undefined) return DEFAULT_MAX_FILE_BYTES;
  const max = bufferConstants.MAX_STRING_LENGTH;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new MemoryArgumentError(
      API,
      `options.maxFileBytes must be an integer number of bytes from 1 to ${max}, received ${describeValue(value)}`,
    );
  }
  return value;
};

/**
 * A {@link SessionStore} of JSON files, one per session, in the reference's layout
 * (`{"session_id", "namespace", "created_at", "updated_at", "memory"}`, plus `"revision"`), so
 * selectools' `JsonFileSessionStore` reads our files and we read its (as revision 1).
 *
 * - Names: a key that is a safe portable file name keeps `<key>.json` (`ns:id.json`); any other
 *   (`a/b`, `..`, `CON`, `.hidden`, upper case, non-ASCII, very long) is encoded, so no id leaves
 *   the directory or shares a file with another, on case-insensitive file systems too. Keys are
 *   read back from the files' content, which must match their name. A file the reference wrote
 *   for another key under a name that is ours for this one (its bare id `a:b` in `a:b.json`, our
 *   name for namespace `a`, id `b`) stays that key's: this one is absent, and its first save
 *   moves that file to the other key's own name (never over a file), else aside.
 * - Writes are atomic and durable: a unique temp file, fsync, rename, fsync of the directory.
 * - No lost updates across processes: a save takes the session's lock file (`O_EXCL`, stale locks
 *   of dead holders broken), checks the revision, writes, and releases; a save that cannot get
 *   the lock within `lockWaitMs` fails with `SessionConflictError`. Reads take no lock.
 * - A damaged file is never dropped: `load` rejects with `SessionCorruptError`, `list` and
 *   `search` skip it, `exists` reports it, and a save or delete first renames it to
 *   `<name>.corrupt-<ms>-<random>`. So is any entry that is not a regular file of at most
 *   `maxFileBytes`: a FIFO, socket or device (never waited on), a directory, a symlink (not
 *   followed: it may loop or lead out of the directory), a huge file (never read). Lock paths get
 *   the same checks.
 * - Expired files are deleted when met, under the lock and only if still expired.
 *
 * @example
 * ```ts
 * import { JsonFileSessionStore } from 'conversation-memory/node';
 * const store = new JsonFileSessionStore({ directory: './sessions', defaultTtl: 86_400 });
 * const loaded = await store.load('thread-7', { namespace: 'user-42' });
 * const next = addMessage(loaded?.state ?? createMemory(), userMessage('hi')).state;
 * await store.save('thread-7', next, { namespace: 'user-42', expectedRevision: loaded?.revision ?? 0 });
 * ```
 */
export class JsonFileSessionStore implements SessionStore {
  /** The directory, as an absolute path. */
  readonly directory: string;
  readonly #ttl: number | undefined;
  readonly #now: () => number;
  readonly #lockWaitMs: number;
  readonly #staleLockMs: number;
  readonly #maxFileBytes: number;
  /** One queue per file name: saves of one process wait here rather than polling the lock. */
  readonly #queues = new Map<string, Promise<void>>();
  #closed = false;

  constructor(options: JsonFileSessionStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new MemoryArgumentError(
        API,
        "options must be an object such as { directory: './sessions' }",
      );
    }
    // A misspelled option would be ignored: `{ ttl: 60 }` would keep sessions forever.
    // Read once, before the folder is made: options that cannot be read create nothing.
    const given = readOptionFields(
      options,
      ['directory', 'defaultTtl', 'now', 'lockWaitMs', 'staleLockMs', 'maxFileBytes'],
      API,
      {
        hints: {
          ttl: 'defaultTtl',
          default_ttl: 'defaultTtl',
          dir: 'directory',
          path: 'directory',
        },
      },
    );
    const { directory } = given;
    if (typeof directory !== 'string' || directory === '') {
      throw new MemoryArgumentError(
        API,
        `options.directory must be a non-empty path, received ${describeValue(directory)}`,
      );
    }
    this.#ttl = sessionTtlOf(given.defaultTtl, API);
    this.#now = sessionClockOf(given.now, API);
    this.#lockWaitMs = positiveMs(given.lockWaitMs, 'lockWaitMs', 10_000);
    this.#staleLockMs = positiveMs(given.staleLockMs, 'staleLockMs', 30_000);
    this.#maxFileBytes = fileBytes(given.maxFileBytes);
    this.directory = resolve(directory);
    try {
      mkdirSync(this.directory, { recursive: true });
    } catch (error) {
      throw asUnavailable(error, {
        api: `new ${API}`,
        store: API,
        writes: false,
        folder: { path: this.directory, made: false },
      });
    }
  }

  /** Where a call's environment failure happened (see `asUnavailable`): this store's folder. */
  #failurePlace(method: string, id: string | undefined, writes: boolean): FailurePlace {
    return {
      api: `${API}.${method}`,
      store: API,
      id,
      writes,
      folder: { path: this.directory, made: true },
    };
  }

  #open(api: string): void {
    if (this.#closed) throw new MemoryArgumentError(`${API}.${api}`, 'the store is closed');
  }

  /** The store's clock (`sessionClockOf` checks each reading: a NaN would go into records). */
  #clock(): number {
    return this.#now();
  }

  #expired(record: SessionRecord): boolean {
    return isSessionExpired(record.updatedAt, this.#ttl, this.#clock());
  }

  /** Runs `task` after the earlier tasks on the same file name of this store. */
  async #serial<T>(name: string, task: () => Promise<T>): Promise<T> {
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
  #find(where: SessionKey, name: string): Promise<Found> {
    return findSessionFile(this.directory, where, name, this.#maxFileBytes);
  }

  /** The file the reference wrote for the key under its own name, when that name differs. */
  #findReferenceCopy(where: SessionKey): Promise<Found> {
    return findReferenceCopy(this.directory, where, this.#maxFileBytes);
  }

  /**
   * Decodes a record's memory: with its own tokenizer (`full`), or cheaply only to validate it.
   * A bad memory is a `SessionCorruptError`; a tokenizer this runtime cannot use rejects with
   * fromDict's own `MemoryDecodeError` (kind `'tokenizer'`: the file is fine).
   */
  #decode(api: string, path: string, record: SessionRecord, full: boolean): MemoryState {
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

  #corrupt(api: string, where: SessionKey, found: Found & { kind: 'corrupt' }): never {
    throw new SessionCorruptError(api, where.key, found.path, found.problems, {
      cause: found.cause,
    });
  }

  /** Whether what was found is damaged: a corrupt file, or a record whose memory does not decode. */
  #damaged(api: string, found: Found): boolean {
    if (found.kind !== 'record') return found.kind === 'corrupt';
    try {
      this.#decode(api, found.path, found.record, false);
      return false;
    } catch (error) {
      if (error instanceof SessionCorruptError) return true;
      throw error;
    }
  }

  /** Removes what was found: a damaged file is renamed aside, a sound one deleted. */
  async #discard(api: string, found: Found & { kind: 'corrupt' | 'record' }): Promise<void> {
    if (this.#damaged(api, found)) {
      await this.#moveAside(found.path);
      return;
    }
    try {
      await unlink(found.path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }

  #lock(name: string, deadline: number, temp?: string): Promise<FileLock | undefined> {
    return acquireFileLock(join(this.directory, lockFileName(name)), {
      deadline,
      staleMs: this.#staleLockMs,
      temp,
    });
  }

  /** Renames a damaged entry to `<name>.corrupt-<ms>-<random>`, kept for inspection. */
  async #moveAside(path: string): Promise<void> {
    await rename(path, join(this.directory, asideFileName(basename(path))));
  }

  /**
   * Moves another session's reference record out of our name for `where`: to that session's own
   * name when nothing is there (where it still loads), else aside. Under that session's lock, so
   * none of its own saves or deletes runs meanwhile; nothing is done if the file changed since.
   */
  async #relocate(
    api: string,
    where: SessionKey,
    occupant: Occupant,
    deadline: number,
    expected: number,
  ): Promise<void> {
    const other = occupant.record.where;
    const otherName = sessionFileName(other.key);
    const lock = await this.#lock(otherName, deadline);
    if (lock === undefined) {
      throw new SessionConflictError(
        api,
        where.key,
        expected,
        0,
        `its file holds the reference's record of session ${describeValue(other.key)}, whose lock another writer held for more than ${this.#lockWaitMs} ms`,
      );
    }
    try {
      const read = await readRegularFile(occupant.path, this.#maxFileBytes);
      const again = read.kind === 'text' ? readSessionRecord(read.text) : undefined;
      if (again?.ok !== true || again.record.where.key !== other.key) return;
      if (!(await moveWithoutOverwriting(occupant.path, join(this.directory, otherName)))) {
        await this.#moveAside(occupant.path);
      }
    } finally {
      await lock.release();
    }
  }

  /** Removes the reference's copy of the key (after a save or delete of ours). */
  async #dropReferenceCopy(api: string, where: SessionKey): Promise<void> {
    const found = await this.#findReferenceCopy(where);
    if (found.kind !== 'absent') await this.#discard(api, found);
  }

  /** Deletes an expired session met by a read, if its lock is free and it is still expired. */
  async #collect(where: SessionKey, name: string): Promise<void> {
    try {
      const lock = await this.#lock(name, 0);
      if (lock === undefined) return;
      try {
        const found = await this.#find(where, name);
        if (found.kind !== 'record' || !this.#expired(found.record)) return;
        if (this.#damaged('collect', found) || !(await lock.held())) return;
        await unlink(found.path);
        await syncDirectory(this.directory);
      } finally {
        await lock.release();
      }
    } catch {
      // Garbage collection only: a read-only directory or a race leaves the expired file, which
      // stays invisible and is collected (or overwritten) later.
    }
  }

  /** The live revision now, read without the lock (for the error of a save that timed out). */
  async #revisionNow(where: SessionKey, name: string): Promise<number> {
    const found = await this.#find(where, name);
    return found.kind === 'record' && !this.#expired(found.record) ? found.record.revision : 0;
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    return unavailableOnFailure(this.#failurePlace('save', sessionId, true), async () => {
      checkSessionOptions(options, 'save', `${API}.save`);
      return this.#save('save', sessionId, state, options);
    });
  }

  async #save(
    api: string,
    sessionId: unknown,
    state: unknown,
    options: unknown,
  ): Promise<SavedSession> {
    this.#open(api);
    const label = `${API}.${api}`;
    const where = sessionKeyOf(sessionId, options, label);
    const expected = expectedRevisionOf(options, label);
    let memoryJson: string;
    try {
      memoryJson = JSON.stringify(toDict(state as MemoryState));
    } catch (error) {
      if (error instanceof MemoryArgumentError) {
        throw new MemoryArgumentError(label, `state: ${error.detail}`, { cause: error });
      }
      throw error;
    }
    const name = sessionFileName(where.key);
    return this.#serial(name, () => this.#write(label, where, name, expected, memoryJson));
  }

  async #write(
    api: string,
    where: SessionKey,
    name: string,
    expected: number | undefined,
    memoryJson: string,
  ): Promise<SavedSession> {
    const deadline = Date.now() + this.#lockWaitMs;
    for (;;) {
      const temp = tempFileName(name, process.pid, randomBytes(6).toString('hex'));
      const lock = await this.#lock(name, deadline, temp);
      if (lock === undefined) {
        const actual = await this.#revisionNow(where, name);
        throw new SessionConflictError(
          api,
          where.key,
          expected ?? actual,
          actual,
          `another writer held the session's lock for more than ${this.#lockWaitMs} ms`,
        );
      }
      try {
        const { found, damaged, current } = await this.#claim(api, where, name, expected, deadline);
        const now = this.#clock();
        const revision = (current?.revision ?? 0) + 1;
        const text = writeSessionRecord(
          where,
          current?.createdAt ?? now,
          now,
          revision,
          memoryJson,
        );
        this.#checkSize(api, text);
        if (damaged && found.kind !== 'absent') await this.#moveAside(found.path);
        if (!(await writeFileAtomic(this.directory, name, temp, text, () => lock.held()))) continue;
        await this.#dropReferenceCopy(api, where);
        return Object.freeze({ revision });
      } finally {
        await lock.release();
      }
    }
  }

  /**
   * Under the session's lock: what is there now, checked against the expected revision, with any
   * other session's reference record moved out of our name first (see {@link #relocate}).
   */
  async #claim(
    api: string,
    where: SessionKey,
    name: string,
    expected: number | undefined,
    deadline: number,
  ): Promise<{ found: Found; damaged: boolean; current: SessionRecord | undefined }> {
    for (;;) {
      const found = await this.#find(where, name);
      const damaged = this.#damaged(api, found);
      const current =
        found.kind === 'record' && !damaged && !this.#expired(found.record)
          ? found.record
          : undefined;
      const actual = current?.revision ?? 0;
      checkExpectedRevision(where.key, expected, actual, api);
      const occupant = found.kind === 'corrupt' ? undefined : found.occupant;
      if (occupant === undefined) return { found, damaged, current };
      await this.#relocate(api, where, occupant, deadline, expected ?? actual);
    }
  }

  /** Refuses to write a session file that this store (or one like it) would not read back. */
  #checkSize(api: string, text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: most texts need no count.
    if (text.length * 3 <= this.#maxFileBytes) return;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= this.#maxFileBytes) return;
    throw new MemoryArgumentError(
      api,
      `state: the session file would be ${bytes} bytes, over options.maxFileBytes (${this.#maxFileBytes}); nothing was written (trim the memory, or raise maxFileBytes)`,
    );
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    return unavailableOnFailure(this.#failurePlace('load', sessionId, false), async () => {
      this.#open('load');
      checkSessionOptions(options, 'load', `${API}.load`);
      return this.#load(`${API}.load`, sessionKeyOf(sessionId, options, `${API}.load`));
    });
  }

  async #load(api: string, where: SessionKey): Promise<LoadedSession | null> {
    const name = sessionFileName(where.key);
    const found = await this.#find(where, name);
    if (found.kind === 'absent') return null;
    if (found.kind === 'corrupt') return this.#corrupt(api, where, found);
    const { record } = found;
    if (this.#expired(record)) {
      await this.#collect(where, name);
      return null;
    }
    const state = this.#decode(api, found.path, record, true);
    return Object.freeze({
      state,
      revision: record.revision,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return unavailableOnFailure(this.#failurePlace('exists', sessionId, false), async () => {
      this.#open('exists');
      checkSessionOptions(options, 'exists', `${API}.exists`);
      const where = sessionKeyOf(sessionId, options, `${API}.exists`);
      const found = await this.#find(where, sessionFileName(where.key));
      if (found.kind === 'absent') return false;
      return found.kind === 'corrupt' || !this.#expired(found.record);
    });
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return unavailableOnFailure(this.#failurePlace('delete', sessionId, true), async () => {
      this.#open('delete');
      checkSessionOptions(options, 'delete', `${API}.delete`);
      const api = `${API}.delete`;
      const where = sessionKeyOf(sessionId, options, api);
      const name = sessionFileName(where.key);
      return this.#serial(name, async () => {
        const lock = await this.#lock(name, Date.now() + this.#lockWaitMs);
        if (lock === undefined) {
          const actual = await this.#revisionNow(where, name);
          throw new SessionConflictError(
            api,
            where.key,
            actual,
            actual,
            `another writer held the session's lock for more than ${this.#lockWaitMs} ms`,
          );
        }
        try {
          const found = await this.#find(where, name);
          if (found.kind === 'absent') return false;
          await this.#discard(api, found);
          await this.#dropReferenceCopy(api, where);
          await syncDirectory(this.directory);
          return found.kind === 'corrupt' || !this.#expired(found.record);
        } finally {
          await lock.release();
        }
      });
    });
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    return unavailableOnFailure(this.#failurePlace('branch', newId, true), async () => {
      this.#open('branch');
      checkSessionOptions(options, 'branch', `${API}.branch`);
      const api = `${API}.branch`;
      const source = sessionKeyOf(sourceId, options, api);
      sessionKeyOf(newId, options, api);
      const loaded = await this.#load(api, source);
      if (loaded === null) {
        throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
      }
      return this.#save('branch', newId, loaded.state, options);
    });
  }

  /**
   * Every live, readable session file: each named as the store names its key (or as the
   * reference did, when the key has no file of ours), not expired, and decodable.
   */
  async *#scan(api: string): AsyncGenerator<Live> {
    const names = new Set(await readdir(this.directory));
    for (const name of names) {
      if (!name.endsWith(SESSION_FILE_SUFFIX)) continue;
      let entry;
      try {
        entry = await readRegularFile(join(this.directory, name), this.#maxFileBytes);
      } catch {
        continue; // a file we may not read: not a session here
      }
      // Deleted since readdir, or not a session file (a FIFO, a symlink, a directory, too large).
      if (entry.kind !== 'text') continue;
      const read = readSessionRecord(entry.text);
      if (!read.ok) continue;
      const { record } = read;
      const own = sessionFileName(record.where.key);
      const isReferenceCopy = name !== own && referenceFileName(record.where) === name;
      if (name !== own && (!isReferenceCopy || names.has(own))) continue;
      if (this.#expired(record)) {
        await this.#collect(record.where, own);
        continue;
      }
      try {
        yield { record, state: this.#decode(api, join(this.directory, name), record, false) };
      } catch (error) {
        if (!(error instanceof SessionCorruptError)) throw error;
      }
    }
  }

  async list(): Promise<readonly SessionMetadata[]> {
    return unavailableOnFailure(this.#failurePlace('list', undefined, false), async () => {
      this.#open('list');
      const out: SessionMetadata[] = [];
      for await (const { record, state } of this.#scan(`${API}.list`)) {
        out.push(
          Object.freeze({
            sessionId: record.where.key,
            ...sessionAddressOf(record.where.key),
            messageCount: state.messages.length,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
          }),
        );
      }
      return Object.freeze(out.sort((a, b) => compareCodePoints(a.sessionId, b.sessionId)));
    });
  }

  async search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]> {
    return unavailableOnFailure(this.#failurePlace('search', undefined, false), async () => {
      this.#open('search');
      const api = `${API}.search`;
      // Read once: the search sees the copy.
      const given = checkSessionOptions(options, 'search', api);
      const terms = searchTerms(query);
      const limit = searchLimitOf(given.limit);
      const namespace = namespaceOf(given.namespace, api);
      if (terms.length === 0 || limit <= 0) return Object.freeze([]);
      const results: SessionSearchResult[] = [];
      for await (const { record, state } of this.#scan(api)) {
        if (namespace !== undefined && record.where.namespace !== namespace) continue;
        const scored = scoreSessionMessages(state.messages, terms);
        if (scored === undefined) continue;
        results.push(
          Object.freeze({
            sessionId: namespace === undefined ? record.where.key : record.where.id,
            ...sessionAddressOf(record.where.key),
            score: scored.score,
            matchedMessages: Object.freeze(scored.matchedMessages),
          }),
        );
      }
      return Object.freeze([...rankSearchResults(results, limit)]);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
