import { errorText } from '../util/errorText';
import { quoteText } from '../util/escapeText';
import { brandError, formatMessage } from './errorBrand';

/** The class in an api such as `RedisSessionStore.save` (`undefined` when there is none). */
const storeOf = (api: string): string | undefined => {
  const name = api.startsWith('new ') ? api.slice(4) : api.split('.')[0];
  return name !== undefined && /Store$/.test(name) ? name : undefined;
};

/**
 * A store's backend could not serve the call: the server is unreachable, did not answer in time,
 * closed the connection, or refused for a while (a Redis Cluster failing over: `CLUSTERDOWN`,
 * `TRYAGAIN`, a replica that is not yet a master); or its place cannot be used at all (a folder
 * path that names a file, a folder that does not exist, no permission, a file that is not a
 * SQLite database or is another program's database). `cause` holds the driver's own error.
 *
 * `transient` says whether waiting can help. `true`: the failure may pass by itself (a server
 * down or failing over, a full disk), and the message ends in "try again later". `false`: it lasts
 * until someone changes the environment, and the message says what is wrong and what to do
 * (`pass a folder path`, `create the folder`, `give this process write access`) instead.
 *
 * `mayHaveWritten` says what the caller must do next. `false`: nothing was written (the request
 * never left, or the server refused it), so retrying is safe. `true`: a write was sent and its
 * outcome is unknown (the connection dropped or the reply was late), or it was applied but not
 * confirmed by the replicas asked for (`minReplicas`), so a failover could still lose it: read
 * the record back (`load`) before deciding again, as after a conflict.
 *
 * Every store reports an environment failure this way, never with a bare driver error: a JSON
 * file store whose folder cannot be created, read or written (`EACCES`, `ENOTDIR`, `EROFS`,
 * `ENOSPC`, …), a SQLite file that cannot be opened or written (`SQLITE_CANTOPEN`,
 * `SQLITE_READONLY`, `SQLITE_IOERR`, `SQLITE_FULL`, `SQLITE_NOTADB`), Redis down or failing
 * over. `store` names the store, `id` the session or stream, `cause` the driver's error.
 *
 * @example
 * ```ts
 * try {
 *   await store.append('s1', [action], { expectedVersion: 3 });
 * } catch (e) {
 *   if (e instanceof StoreUnavailableError && e.transient && !e.mayHaveWritten) retryLater();
 *   else throw e; // e.message says what is wrong and what to do
 * }
 * ```
 */
export class StoreUnavailableError extends Error {
  declare readonly code: 'CM_STORE_UNAVAILABLE';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** `true` when the call may have changed the store before it failed (see the class). */
  readonly mayHaveWritten: boolean;
  /**
   * `true` when the failure may pass by itself, so that trying again later can work; `false` when
   * it lasts until the environment is changed (the message says how). See the class.
   */
  readonly transient: boolean;
  /** The store's class (`JsonFileSessionStore`), or `undefined` when the thrower did not say. */
  readonly store: string | undefined;
  /**
   * The session or stream the call was about, or `undefined` for a call about none
   * (`list`, `streams`, a constructor) or when the thrower did not say.
   */
  readonly id: string | undefined;
  /** What the constructor was given, for {@link StoreUnavailableError.forId}. */
  readonly #given: {
    readonly api: string;
    readonly what: string;
    readonly options: StoreUnavailableOptions | undefined;
  };
  /**
   * @param what - what failed (`Redis did not answer within 300 ms`)
   * @param mayHaveWritten - whether a write may have been applied
   * @param options - `cause`: the driver's error, echoed (escaped) in the message; `store`: the
   *   store's class (default: `api` up to its first `.`); `id`: the session or stream, named
   *   (quoted, escaped) in the message after `what`;
   *   `remedy`: for a failure that lasts, what to do about it (`create the folder, or pass …`),
   *   said instead of "try again later" (and `transient` is then `false`)
   */
  constructor(
    api: string,
    what: string,
    mayHaveWritten: boolean,
    options?: StoreUnavailableOptions,
  ) {
    const cause = options?.cause === undefined ? '' : ` (${errorText(options.cause)})`;
    const about = options?.id === undefined ? '' : `, id ${quoteText(options.id)}`;
    const remedy = options?.remedy;
    const detail =
      `${what}${about}${cause}; ` +
      (mayHaveWritten
        ? 'the change may or may not have been applied: read it back before deciding again' +
          (remedy === undefined ? '' : `; ${remedy}`)
        : `nothing was written: ${remedy ?? 'try again later'}`);
    super(
      formatMessage(api, detail),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    brandError(this, 'CM_STORE_UNAVAILABLE', 'StoreUnavailableError', detail);
    this.mayHaveWritten = mayHaveWritten;
    this.transient = remedy === undefined;
    this.store = options?.store ?? storeOf(api);
    this.id = options?.id;
    this.#given = { api, what, options };
  }

  /**
   * The same failure, about the session or stream `id`: a new error whose `id` is `id` and whose
   * message names it. For a store whose connection reports failures without knowing which call
   * they were for (the Redis stores do this); an error that names an id already is returned as
   * it is.
   *
   * @param id - the session or stream the failed call was about
   * @returns an error naming `id`
   * @example
   * ```ts
   * const failure = new StoreUnavailableError('MyStore.load', 'the server is unreachable', false);
   * failure.forId('s1').message;
   * // '[conversation-memory] MyStore.load: the server is unreachable, id "s1"; nothing was written: try again later'
   * ```
   */
  forId(id: string): StoreUnavailableError {
    if (this.id !== undefined) return this;
    const { api, what, options } = this.#given;
    return new StoreUnavailableError(api, what, this.mayHaveWritten, { ...options, id });
  }
}

/**
 * The options of {@link StoreUnavailableError}'s constructor.
 *
 * @example
 * ```ts
 * const options: StoreUnavailableOptions = { store: 'MyStore', id: 's1', cause: new Error('ECONNRESET') };
 * ```
 */
export interface StoreUnavailableOptions {
  /** The driver's error, echoed (escaped) in the message. */
  readonly cause?: unknown;
  /** The store's class (default: the api up to its first `.`). */
  readonly store?: string;
  /** The session or stream, named (quoted, escaped) in the message after `what`. */
  readonly id?: string;
  /** For a failure that lasts, what to do about it, said instead of "try again later". */
  readonly remedy?: string;
}
