import { resolve } from 'node:path';
import {
  type LoadedSession,
  MemoryArgumentError,
  type MemoryState,
  type RemovedCount,
  type SavedSession,
  type SaveOptions,
  type SearchOptions,
  SessionConflictError,
  type SessionMetadata,
  type SessionOptions,
  type SessionSearchResult,
  type SessionStore,
  toDict,
} from 'conversation-memory';
import {
  checkSessionOptions,
  compareCodePoints,
  describeValue,
  expectedRevisionOf,
  namespaceKeys,
  namespaceOf,
  namespaceToDeleteOf,
  rankSearchResults,
  scoreSessionMessages,
  searchLimitOf,
  searchTerms,
  type SessionKey,
  sessionAddressOf,
  sessionKeyOf,
} from 'conversation-memory/store-kit';
import { StoreCalls, unavailableAt } from '../storeCalls';
import { syncDirectory } from './atomicWrite';
import { SessionFolder } from './connection';
import { sessionFileName } from './fileNames';
import { type JsonFileSessionStoreOptions, readSessionStoreOptions } from './options';
import { deleteFolderNamespace, sweepFolder } from './retention';
import { scanSessions } from './sessionScan';
import { writeSession } from './sessionWrite';

export type { JsonFileSessionStoreOptions } from './options';

const API = 'JsonFileSessionStore';

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
 * - Expired files are deleted when met, under the lock and only if still expired, and by
 *   `sweep()`, one file at a time (a damaged file is never swept: it stays for inspection).
 * - `deleteNamespace(ns)` deletes the namespace's files one session at a time, each under its
 *   lock (its own file and the reference's copy, damaged or expired ones too), and every file kept
 *   aside from one of them.
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
  readonly #folder: SessionFolder;
  readonly #calls: StoreCalls;

  constructor(options: JsonFileSessionStoreOptions) {
    // Read once, before the folder is made: options that cannot be read create nothing.
    const settings = readSessionStoreOptions(options, API);
    this.directory = resolve(settings.directory);
    const folder = SessionFolder.open(API, this.directory, settings);
    this.#folder = folder;
    this.#calls = new StoreCalls(
      API,
      unavailableAt(({ method, id, writes }) => folder.failurePlace(method, id, writes)),
    );
  }

  async save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('save', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'save', api);
      return this.#save(api, sessionId, state, options);
    });
  }

  async #save(
    api: string,
    sessionId: unknown,
    state: unknown,
    options: unknown,
  ): Promise<SavedSession> {
    const where = sessionKeyOf(sessionId, options, api);
    const expected = expectedRevisionOf(options, api);
    let memoryJson: string;
    try {
      memoryJson = JSON.stringify(toDict(state as MemoryState));
    } catch (error) {
      if (error instanceof MemoryArgumentError) {
        throw new MemoryArgumentError(api, `state: ${error.detail}`, { cause: error });
      }
      throw error;
    }
    const name = sessionFileName(where.key);
    const folder = this.#folder;
    return folder.serial(name, () => writeSession(folder, api, where, name, expected, memoryJson));
  }

  async load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null> {
    return this.#calls.run('load', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'load', api);
      return this.#load(api, sessionKeyOf(sessionId, options, api));
    });
  }

  async #load(api: string, where: SessionKey): Promise<LoadedSession | null> {
    const folder = this.#folder;
    const name = sessionFileName(where.key);
    const found = await folder.find(where, name);
    if (found.kind === 'absent') return null;
    if (found.kind === 'corrupt') return folder.corrupt(api, where, found);
    const { record } = found;
    if (folder.expired(record)) {
      await folder.collect(where, name);
      return null;
    }
    const state = folder.decode(api, found.path, record, true);
    return Object.freeze({
      state,
      revision: record.revision,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  }

  async exists(sessionId: string, options?: SessionOptions): Promise<boolean> {
    return this.#calls.run('exists', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'exists', api);
      const where = sessionKeyOf(sessionId, options, api);
      const found = await this.#folder.find(where, sessionFileName(where.key));
      if (found.kind === 'absent') return false;
      return found.kind === 'corrupt' || !this.#folder.expired(found.record);
    });
  }

  async delete(sessionId: string, options?: SessionOptions): Promise<boolean> {
    const folder = this.#folder;
    return this.#calls.write('delete', { id: sessionId }, async ({ api }) => {
      checkSessionOptions(options, 'delete', api);
      const where = sessionKeyOf(sessionId, options, api);
      const name = sessionFileName(where.key);
      return folder.serial(name, async () => {
        const lock = await folder.lock(name, Date.now() + folder.lockWaitMs);
        if (lock === undefined) {
          const actual = await folder.revisionNow(where, name);
          throw new SessionConflictError(
            api,
            where.key,
            actual,
            actual,
            `another writer held the session's lock for more than ${folder.lockWaitMs} ms`,
          );
        }
        try {
          const found = await folder.find(where, name);
          if (found.kind === 'absent') return false;
          await folder.discard(api, found);
          await folder.dropReferenceCopy(api, where);
          await syncDirectory(folder.directory);
          return found.kind === 'corrupt' || !folder.expired(found.record);
        } finally {
          await lock.release();
        }
      });
    });
  }

  async branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession> {
    return this.#calls.write('branch', { id: newId }, async ({ api }) => {
      checkSessionOptions(options, 'branch', api);
      const source = sessionKeyOf(sourceId, options, api);
      sessionKeyOf(newId, options, api);
      const loaded = await this.#load(api, source);
      if (loaded === null) {
        throw new MemoryArgumentError(api, `session ${describeValue(source.key)} not found`);
      }
      return this.#save(api, newId, loaded.state, options);
    });
  }

  async list(): Promise<readonly SessionMetadata[]> {
    return this.#calls.run('list', {}, async ({ api }) => {
      const out: SessionMetadata[] = [];
      for await (const { record, state } of scanSessions(this.#folder, api)) {
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
    return this.#calls.run('search', {}, async ({ api }) => {
      // Read once: the search sees the copy.
      const given = checkSessionOptions(options, 'search', api);
      const terms = searchTerms(query);
      const limit = searchLimitOf(given.limit);
      const namespace = namespaceOf(given.namespace, api);
      if (terms.length === 0 || limit <= 0) return Object.freeze([]);
      const results: SessionSearchResult[] = [];
      for await (const { record, state } of scanSessions(this.#folder, api)) {
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

  async sweep(): Promise<RemovedCount> {
    return this.#calls.write('sweep', {}, async ({ stillOpen }) =>
      Object.freeze({ removed: await sweepFolder(this.#folder, stillOpen) }),
    );
  }

  async deleteNamespace(namespace: string): Promise<RemovedCount> {
    return this.#calls.write('deleteNamespace', {}, async ({ api, stillOpen }) => {
      const keys = namespaceKeys(namespaceToDeleteOf(namespace, api));
      return Object.freeze({
        removed: await deleteFolderNamespace(this.#folder, api, keys, stillOpen),
      });
    });
  }

  async close(): Promise<void> {
    this.#calls.close();
  }
}
