import { isConversationMemoryError, StoreUnavailableError } from 'conversation-memory';

/**
 * Replies by which a server refuses a command for a while, without running it: a cluster failing
 * over (`CLUSTERDOWN`, `TRYAGAIN`, `MASTERDOWN`), a node that is a replica now (`READONLY`), one
 * still loading its data (`LOADING`), busy with a script (`BUSY`), or short of replicas
 * (`NOREPLICAS`, the server's `min-replicas-to-write`).
 */
const REFUSAL = /^(?:CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|LOADING|BUSY|NOREPLICAS)\b/;

/**
 * node-redis errors raised before a command was written (the client is offline or closed, the
 * connection or the cluster's discovery failed, redirections ran out), by class name: the classes
 * cannot be imported here, `redis` being an optional peer.
 */
const NOT_SENT = new Set([
  'ClientOfflineError',
  'ClientClosedError',
  'ConnectionTimeoutError',
  'RootNodesUnavailableError',
  'ReconnectStrategyError',
  'MaxCommandRedirectionsError',
]);

/** Socket errors of a connection that was never made. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** node-redis errors, and socket errors, of a connection that dropped with commands on it. */
const LOST = new Set([
  'SocketClosedUnexpectedlyError',
  'DisconnectsClientError',
  'SocketTimeoutError',
]);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/** The names of the classes on `error`'s prototype chain. */
const classNames = (error: object): string[] => {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(error) as object | null; proto !== null;) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string') names.push(name);
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return names;
};

/**
 * What a failed Redis call becomes: our own errors as they are; a server's reply that is not a
 * refusal (`NOSCRIPT`, a script's error) as it is, for the caller to handle; everything else
 * that says the server could not serve the call (the connection, a timeout, a cluster failing
 * over) a {@link StoreUnavailableError}, with `mayHaveWritten` when `writes` and the command may
 * have reached the server (a dropped connection or a late reply, not a refusal or a command never
 * sent).
 *
 * @param error - what the client threw
 * @param api - the calling method, for the message
 * @param writes - whether the command could change the store
 * @example
 * ```ts
 * redisFailure(new Error('Socket closed unexpectedly'), 'RedisSessionStore.save', true).mayHaveWritten; // true
 * ```
 */
export const redisFailure = (error: unknown, api: string, writes: boolean): unknown => {
  if (isConversationMemoryError(error) || !(error instanceof Error)) return error;
  const names = classNames(error);
  if (names.includes('ErrorReply')) {
    if (!REFUSAL.test(error.message)) return error;
    return new StoreUnavailableError(api, 'Redis refused the command for now', false, {
      cause: error,
    });
  }
  if (error.name === 'TimeoutError' || names.includes('TimeoutError')) {
    return new StoreUnavailableError(api, 'Redis did not answer in time', writes, { cause: error });
  }
  const code = (error as { code?: unknown }).code;
  const has = (codes: ReadonlySet<string>) => typeof code === 'string' && codes.has(code);
  if (names.some((name) => NOT_SENT.has(name)) || has(NOT_CONNECTED)) {
    return new StoreUnavailableError(api, 'Redis is unreachable', false, { cause: error });
  }
  const lost = names.some((name) => LOST.has(name)) || has(LOST_CODES);
  return new StoreUnavailableError(
    api,
    lost ? 'the connection to Redis was lost' : 'the Redis client failed',
    writes,
    { cause: error },
  );
};
