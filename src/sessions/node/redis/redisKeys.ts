/**
 * The store's key layout in Redis, one place for every name it writes or scans:
 * - `${prefix}s:${key}`: one hash per session (`key` is `ns:id` or the bare id);
 * - `${prefix}corrupt:${key}:${time}:${nonce}`: a damaged record moved aside by a save;
 * - and the event store's families (see {@link RedisEventKeyLayout}): `ev:`, `evc:`, `evs:`.
 *
 * Every family differs in its first segment after the prefix (`s:`, `corrupt:`, `ev:`, `evc:`,
 * `evs:`; none contains a `:`), and a session or stream key is everything after that segment, so
 * no id and no namespace can make one record's key equal another's, of the same family or not
 * (the reference's `__meta__` prefix could), even when the session store and the event store
 * share one prefix.
 *
 * @example
 * ```ts
 * const layout: RedisKeyLayout = redisKeyLayout('app:');
 * layout.session('u1:s1'); // 'app:s:u1:s1'
 * ```
 */
export interface RedisKeyLayout {
  /** The hash of the session whose key is `key`. */
  readonly session: (key: string) => string;
  /** The session key of a hash name found by SCAN, or `undefined` for a name outside the layout. */
  readonly sessionKeyOf: (name: string) => string | undefined;
  /** A fresh name to move the damaged record of `key` to. */
  readonly aside: (key: string, now: number, nonce: string) => string;
  /** The SCAN pattern of every session hash, or of those whose key starts with `keyStart`. */
  readonly sessionPattern: (keyStart?: string) => string;
  /** The SCAN pattern of every aside record. */
  readonly asidePattern: () => string;
}

/**
 * Escapes a string for a Redis glob pattern (`SCAN … MATCH`): `*`, `?`, `[`, `]` and `\` match
 * only themselves, so an id or a prefix cannot widen the match.
 *
 * @example
 * ```ts
 * escapeRedisGlob('a*b'); // 'a\\*b'
 * ```
 */
export const escapeRedisGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * The key layout under `prefix` (see {@link RedisKeyLayout}).
 *
 * @example
 * ```ts
 * redisKeyLayout('p:').sessionPattern('u1:'); // 'p:s:u1:*'
 * ```
 */
export const redisKeyLayout = (prefix: string): RedisKeyLayout => {
  const sessions = `${prefix}s:`;
  return {
    session: (key) => sessions + key,
    sessionKeyOf: (name) => (name.startsWith(sessions) ? name.slice(sessions.length) : undefined),
    aside: (key, now, nonce) => `${prefix}corrupt:${key}:${now}:${nonce}`,
    sessionPattern: (keyStart = '') => `${escapeRedisGlob(sessions + keyStart)}*`,
    asidePattern: () => `${escapeRedisGlob(`${prefix}corrupt:`)}*`,
  };
};

/**
 * The event store's keys under `prefix`, for the stream whose key is `key` (`ns:id` or the id):
 * - `${prefix}ev:${key}`: the Redis Stream of its actions (entry `v-0` holds version `v`);
 * - `${prefix}evc:${key}`: a hash with its config, creation time and incarnation (a random id
 *   written by the append that creates it: the stream exists exactly when this key does);
 * - `${prefix}evs:${key}`: a hash of snapshots, field = version, value = the state's envelope.
 *
 * @example
 * ```ts
 * const events: RedisEventKeyLayout = redisEventKeyLayout('app:');
 * events.stream('u1:t1'); // 'app:ev:u1:t1'
 * ```
 */
export interface RedisEventKeyLayout {
  readonly stream: (key: string) => string;
  readonly meta: (key: string) => string;
  readonly snapshots: (key: string) => string;
  /** The stream key of a meta key found by SCAN, or `undefined` outside the layout. */
  readonly streamKeyOf: (metaName: string) => string | undefined;
  /** The SCAN pattern of every meta key, or of those whose stream key starts with `keyStart`. */
  readonly metaPattern: (keyStart?: string) => string;
}

/**
 * The event store's key layout under `prefix` (see {@link RedisEventKeyLayout}).
 *
 * @example
 * ```ts
 * redisEventKeyLayout('p:').metaPattern('u1:'); // 'p:evc:u1:*'
 * ```
 */
export const redisEventKeyLayout = (prefix: string): RedisEventKeyLayout => {
  const metas = `${prefix}evc:`;
  return {
    stream: (key) => `${prefix}ev:${key}`,
    meta: (key) => metas + key,
    snapshots: (key) => `${prefix}evs:${key}`,
    streamKeyOf: (name) => (name.startsWith(metas) ? name.slice(metas.length) : undefined),
    metaPattern: (keyStart = '') => `${escapeRedisGlob(metas + keyStart)}*`,
  };
};
