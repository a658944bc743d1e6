import { errorText } from '../util/errorText';
import { brandError, formatMessage } from './errorBrand';

/**
 * A store's backend could not serve the call: the server is unreachable, did not answer in time,
 * closed the connection, or refused for a while (a Redis Cluster failing over: `CLUSTERDOWN`,
 * `TRYAGAIN`, a replica that is not yet a master). `cause` holds the driver's own error.
 *
 * `mayHaveWritten` says what the caller must do next. `false`: nothing was written (the request
 * never left, or the server refused it), so retrying is safe. `true`: a write was sent and its
 * outcome is unknown (the connection dropped or the reply was late), or it was applied but not
 * confirmed by the replicas asked for (`minReplicas`), so a failover could still lose it: read
 * the record back (`load`) before deciding again, as after a conflict.
 *
 * @example
 * ```ts
 * try {
 *   await store.append('s1', [action], { expectedVersion: 3 });
 * } catch (e) {
 *   if (e instanceof StoreUnavailableError && !e.mayHaveWritten) retryLater();
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
   * @param what - what failed (`Redis did not answer within 300 ms`)
   * @param mayHaveWritten - whether a write may have been applied
   * @param options - `cause`: the driver's error, echoed (escaped) in the message
   */
  constructor(api: string, what: string, mayHaveWritten: boolean, options?: { cause?: unknown }) {
    const cause = options?.cause === undefined ? '' : ` (${errorText(options.cause)})`;
    const detail =
      `${what}${cause}; ` +
      (mayHaveWritten
        ? 'the change may or may not have been applied: read it back before deciding again'
        : 'nothing was written: try again later');
    super(formatMessage(api, detail), options);
    brandError(this, 'CM_STORE_UNAVAILABLE', 'StoreUnavailableError', detail);
    this.mayHaveWritten = mayHaveWritten;
  }
}
