/**
 * The store's key layout in Redis, one place for every name it writes or scans:
 * - `${prefix}s:${key}`: one hash per session (`key` is `ns:id` or the bare id);
 * - `${prefix}corrupt:${key}:${time}:${nonce}`: a damaged record moved aside by a save.
 *
 * The two families differ in their first segment after the prefix (`s:` and `corrupt:`), and a
 * session key is everything after `${prefix}s:`, so no id and no namespace can make one session's
 * key equal another's, or a session's equal an aside key (the reference's `__meta__` prefix could).
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
