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

/**
 * Failures that last until the configuration changes, by the server's reply (of the error or the
 * error it wraps): credentials refused, a password missing, a user without the store's commands.
 * What is wrong, and what to do. (A host name that does not resolve is not one: in a container it
 * often resolves once the server's container is up.)
 */
const LASTING: readonly {
  readonly match: RegExp;
  readonly what: string;
  readonly remedy: string;
}[] = [
  {
    match: /^WRONGPASS\b/,
    what: 'Redis refused the credentials (a wrong user name or password, or a disabled user)',
    remedy:
      "check the user name and password in the URL (redis://user:password@host:port) or the client's options",
  },
  {
    match: /^NOAUTH\b/,
    what: 'Redis requires a password, and none was given',
    remedy: "put the password in the URL (redis://:password@host:port) or the client's options",
  },
  {
    match: /^NOPERM\b/,
    what: "the Redis user may not run the store's commands or use its keys",
    remedy:
      'grant the user the commands and keys the store uses (ACL SETUSER; its scripts run with EVALSHA and EVAL), or use another user',
  },
];

/** The lasting failure `error` is (see {@link LASTING}), looking into what it wraps. */
const lastingOf = (error: Error): (typeof LASTING)[number] | undefined => {
  // node-redis wraps a failed connection's reply in a ReconnectStrategyError (`originalError`).
  const wrapped = error as { originalError?: unknown; cause?: unknown };
  for (const candidate of [error, wrapped.originalError, wrapped.cause]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const { message } = candidate as { message?: unknown };
    const found = LASTING.find(({ match }) => typeof message === 'string' && match.test(message));
    if (found !== undefined) return found;
  }
  return undefined;
};

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
 * What a failed Redis call becomes: our own errors as they are; a failure that lasts (credentials
 * refused or missing, a user without permission) a
 * {@link StoreUnavailableError} that says what is wrong and what to do (`transient: false`); a
 * server's reply that is not a refusal (`NOSCRIPT`, a script's error) as it is, for the caller to
 * handle; everything else
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
  const lasting = lastingOf(error);
  if (lasting !== undefined) {
    // Refused before anything ran: an authentication or a permission check, or no connection.
    return new StoreUnavailableError(api, lasting.what, false, {
      cause: error,
      remedy: lasting.remedy,
    });
  }
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
