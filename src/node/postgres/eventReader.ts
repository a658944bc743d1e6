import { EventPrunedError, type StoredAction } from 'conversation-memory';
import { isSessionExpired } from 'conversation-memory/store-kit';
import type { PostgresConnection, PostgresSend } from './connection';
import type { EventStatements } from './eventStatements';
import {
  actionPages,
  configOf,
  headError,
  headProblem,
  readStreamHead,
  type StreamHead,
  type StreamPlace,
  stateAt,
} from './eventStreams';

/**
 * How the event store reads a stream back: its live head (an expired stream is absent), its
 * state at a version in one consistent read, and its actions page by page. A version below a
 * pruned stream's first one is an `EventPrunedError`, never a shorter history.
 *
 * @example
 * ```ts
 * const reader = new StreamReader(connection, sql, { location, ttl: 3600, now: () => Date.now() / 1000 });
 * const found = await reader.loadAt('PostgresEventStore.load', 'u1:s1', undefined);
 * ```
 */
export class StreamReader {
  readonly #connection: PostgresConnection;
  readonly #sql: EventStatements;
  readonly #location: string;
  readonly #ttl: number | undefined;
  readonly #now: () => number;

  constructor(
    connection: PostgresConnection,
    sql: EventStatements,
    settings: { readonly location: string; readonly ttl: number | undefined; now: () => number },
  ) {
    this.#connection = connection;
    this.#sql = sql;
    this.#location = settings.location;
    this.#ttl = settings.ttl;
    this.#now = settings.now;
  }

  /** Where the stream's records are, for errors. */
  place(api: string, key: string): StreamPlace {
    return { api, key, location: this.#location };
  }

  /** Whether a stream last appended to at `updatedAt` (a number, or a column's text) has expired. */
  expired(updatedAt: unknown): boolean {
    const at =
      typeof updatedAt === 'number' || typeof updatedAt === 'string' ? Number(updatedAt) : NaN;
    return Number.isFinite(at) && isSessionExpired(at, this.#ttl, this.#now());
  }

  /** One statement at a time on any connection of the pool (reading). */
  send(api: string): PostgresSend {
    return (text, values) => this.#connection.query(api, false, text, values);
  }

  /** The stream's head, `undefined` when absent or expired; a head that does not decode rejects. */
  async head(send: PostgresSend, api: string, key: string): Promise<StreamHead | undefined> {
    const [row] = await send(this.#sql.head, [key]);
    if (row === undefined) return undefined;
    const read = readStreamHead(row);
    if ('head' in read && this.expired(read.head.updatedAt)) return undefined;
    if ('problem' in read) throw headError(read, this.place(api, key));
    return read.head;
  }

  /**
   * In one consistent read: the stream's head, the version asked for (its version when
   * `undefined`), and the state and config there (`state` `undefined` past its version);
   * `undefined` for an absent stream.
   *
   * @throws EventPrunedError below a pruned stream's first version; EventCorruptError
   */
  async loadAt(api: string, key: string, version: number | undefined) {
    return this.#connection.transaction(
      api,
      false,
      async (send) => {
        const head = await this.head(send, api, key);
        if (head === undefined) return undefined;
        const target = version ?? head.version;
        if (target > head.version) return { head, target, state: undefined };
        if (head.first > 1 && target < head.first) {
          throw new EventPrunedError(api, key, target, head.first);
        }
        const place = this.place(api, key);
        const problem = headProblem(head, target);
        if (problem !== undefined) throw headError(problem, place);
        const config = configOf(head, place);
        const state = await stateAt(send, this.#sql, head, config, target, place);
        return { head, target, state, config };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY',
    );
  }

  /**
   * The actions of `key` from `from` to `to` (checked; nothing for an absent stream).
   *
   * @throws EventPrunedError (before anything is yielded) when `from` is below the first version
   */
  async *entries(api: string, key: string, from: number, to: number): AsyncGenerator<StoredAction> {
    const send = this.send(api);
    const head = await this.head(send, api, key);
    if (head === undefined) return;
    if (from < head.first) throw new EventPrunedError(api, key, from, head.first);
    const place = this.place(api, key);
    const past = headProblem({ ...head, damagedAt: undefined });
    if (past !== undefined && past.at > head.version) throw headError(past, place);
    const last = Math.min(to, head.version);
    try {
      yield* actionPages(send, this.#sql, head.id, from, last, place);
    } catch (error) {
      // A stream deleted (or replaced) while it was read is absent now, not damaged; one pruned
      // while it was read says so.
      const now = await this.head(send, api, key).catch(() => head);
      if (now?.id !== head.id) return;
      if (now.first > head.first) throw new EventPrunedError(api, key, from, now.first);
      throw error;
    }
  }
}
