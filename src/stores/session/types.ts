import type { MemoryState } from '../../model/state';
import type { RevisionedStore } from '../kit/revisionedStore';
import type { SessionSearchResult } from '../kit/search';
import type { SessionAddress } from '../kit/sessionKey';
import type { RetentionStore } from '../kit/retention';

// Two types of the contract are declared in the kit, whose helpers make them (`sessionAddressOf`,
// `rankSearchResults`); the contract lists them here too.
export type { SessionAddress, SessionSearchResult };

/**
 * Where a session lives: an optional namespace (a tenant, a user) and its id. Two different
 * (namespace, id) pairs are always two sessions; the stored key is `ns:id` with a namespace, else
 * the bare id, as in the reference, with `:` and `%` escaped where the reference was ambiguous
 * (see `sessionKeyOf`).
 *
 * @example
 * ```ts
 * await store.load('thread-7', { namespace: 'user-42' }); // the key 'user-42:thread-7'
 * ```
 */
export interface SessionOptions {
  readonly namespace?: string | undefined;
}

/**
 * Options of {@link SessionStore.save}: `expectedRevision` makes the save conditional. `0` saves
 * only when the session is absent (or expired); `n` only when the stored revision is `n`; omitted,
 * the save is unconditional (the reference's last-writer-wins, which the agent never uses).
 *
 * @example
 * ```ts
 * const { revision } = await store.save('s1', state, { expectedRevision: loaded?.revision ?? 0 });
 * ```
 */
export interface SaveOptions extends SessionOptions {
  readonly expectedRevision?: number | undefined;
}

/**
 * What a save returns: the session's new revision (1 for a new session, then one more per save).
 *
 * @example
 * ```ts
 * const saved: SavedSession = { revision: 1 };
 * ```
 */
export interface SavedSession {
  readonly revision: number;
}

/**
 * A loaded session: the memory state, its revision (pass it as `expectedRevision` to the next
 * save), and its Unix timestamps in seconds (floats, as the reference writes them).
 *
 * @example
 * ```ts
 * const loaded = await store.load('s1');
 * if (loaded) console.log(loaded.revision, new Date(loaded.updatedAt * 1000));
 * ```
 */
export interface LoadedSession {
  readonly state: MemoryState;
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * One entry of {@link SessionStore.list}. `sessionId` is the session's storage key (`ns:id` when
 * namespaced, as in the reference, with any `:` or `%` of the namespace escaped: see
 * `sessionKeyOf`); `id` and `namespace` load it back: `store.load(e.id, { namespace: e.namespace })`.
 *
 * @example
 * ```ts
 * const entry: SessionMetadata = { sessionId: 'u1:s1', id: 's1', namespace: 'u1', messageCount: 4, createdAt: 1764500000, updatedAt: 1764500100 };
 * ```
 */
export interface SessionMetadata extends SessionAddress {
  readonly sessionId: string;
  readonly messageCount: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Options of {@link SessionStore.search}: only sessions of `namespace` (ids returned bare), at
 * most `limit` results (default 5; `0` or less gives none).
 *
 * @example
 * ```ts
 * await store.search('lisbon hotel', { namespace: 'user-42', limit: 10 });
 * ```
 */
export interface SearchOptions extends SessionOptions {
  readonly limit?: number | undefined;
}

/**
 * Options every store takes: `defaultTtl` in seconds (a sliding expiry: every save resets it; an
 * expired session is absent to every method), and `now`, the clock in Unix seconds (tests).
 *
 * @example
 * ```ts
 * new InMemorySessionStore({ defaultTtl: 3600 });
 * ```
 */
export interface SessionStoreOptions {
  readonly defaultTtl?: number | null | undefined;
  readonly now?: (() => number) | undefined;
}

/**
 * Persistent conversation memory, the same on every backend (in memory, JSON files, SQLite,
 * Redis). Every method is async; ids and namespaces are validated (`SessionIdError`); a stale
 * `expectedRevision` fails with `SessionConflictError` and writes nothing; a record that does not
 * decode rejects with `SessionCorruptError` and is never silently dropped. Its `load`, `save`,
 * `delete`, `list` and `close` are those of a {@link RevisionedStore}, the contract it shares with
 * `KnowledgeStore`.
 *
 * @example
 * ```ts
 * const loaded = await store.load('s1');
 * const next = addMessage(loaded?.state ?? createMemory(), userMessage('hi')).state;
 * await store.save('s1', next, { expectedRevision: loaded?.revision ?? 0 });
 * ```
 */
export interface SessionStore
  extends RevisionedStore<MemoryState, LoadedSession, SessionMetadata>, RetentionStore {
  /** Writes the state; resolves to the new revision. */
  save(sessionId: string, state: MemoryState, options?: SaveOptions): Promise<SavedSession>;
  /** The session, or `null` when absent or expired; a corrupt record rejects. */
  load(sessionId: string, options?: SessionOptions): Promise<LoadedSession | null>;
  /** Every live session (expired and corrupt ones skipped), sorted by `sessionId`. */
  list(): Promise<readonly SessionMetadata[]>;
  /** Removes the session; `true` when there was one. */
  delete(sessionId: string, options?: SessionOptions): Promise<boolean>;
  /** Whether a live session (or a corrupt record) is stored under the id. */
  exists(sessionId: string, options?: SessionOptions): Promise<boolean>;
  /** Copies `sourceId` to `newId` in the same namespace; a missing source rejects. */
  branch(sourceId: string, newId: string, options?: SaveOptions): Promise<SavedSession>;
  /** The reference's keyword search over user and assistant messages. */
  search(query: string, options?: SearchOptions): Promise<readonly SessionSearchResult[]>;
  /** Releases connections (stores that hold none resolve at once). */
  close(): Promise<void>;
}
