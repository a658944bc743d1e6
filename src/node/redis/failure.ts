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

/**
 * What an error reply of the server becomes (the reply is the `cause`): a refusal for now or
 * `OOM` (nothing ran: `transient`, nothing written); `WRONGTYPE` (a key of the store's holds
 * another type: it lasts until someone removes that key); any other reply (`NOSCRIPT` after the
 * store's fallback, a script's error, an unknown command) lasts too. A reply raised inside a
 * script may follow writes of that script (Lua scripts are not rolled back): for a writing call
 * it says the write may have been applied.
 */
const replyFailure = (error: Error, api: string, writes: boolean): StoreUnavailableError => {
  const { message } = error;
  const options = { cause: error };
  if (REFUSAL.test(message)) {
    return new StoreUnavailableError(api, 'Redis refused the command for now', false, options);
  }
  if (/^OOM\b/.test(message)) {
    return new StoreUnavailableError(
      api,
      'Redis is out of memory (its maxmemory) and refused the command',
      false,
      options,
    );
  }
  // Redis 7 ends an error raised inside a script with `script: <sha1>, on @user_script:<line>.`
  const inScript = writes && /\bscript: [0-9a-f]{40}\b/.test(message);
  if (/^WRONGTYPE\b/.test(message)) {
    return new StoreUnavailableError(
      api,
      "a key in the store's place holds another type of value than the store writes there (another program's key, under the store's prefix?)",
      inScript,
      {
        ...options,
        remedy:
          'delete or rename that key with your Redis client, or give the store a prefix of its own (options.prefix)',
      },
    );
  }
  return new StoreUnavailableError(api, 'Redis answered the command with an error', inScript, {
    ...options,
    remedy:
      "see the server's reply (the cause); if it names one of the store's scripts, report it as a bug of conversation-memory",
  });
};

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
 * {@link StoreUnavailableError} that says what is wrong and what to do (`transient: false`); an
 * error reply of the server a {@link StoreUnavailableError} too, with the reply as `cause` (see
 * `replyFailure`); everything else
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
  if (names.includes('ErrorReply')) return replyFailure(error, api, writes);
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
