import { SessionIdError, type SessionKey, sessionKeyOf } from 'conversation-memory';

/** A JavaScript string that UTF-8 cannot carry (a lone surrogate) would become U+FFFD in Redis. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Tells whether a string survives the trip to Redis (UTF-8) unchanged.
 *
 * @example
 * ```ts
 * isRedisSafeText('\uD800'); // false
 * ```
 */
export const isRedisSafeText = (value: string): boolean => !LONE_SURROGATE.test(value);

/**
 * `sessionKeyOf` (the rules every store applies), and one more that only Redis needs: the id and
 * the namespace must be well-formed Unicode, since two ids that differ only in a lone surrogate
 * would be the same key once encoded as UTF-8.
 *
 * @throws SessionIdError naming the field
 * @example
 * ```ts
 * redisSessionKeyOf('s1', { namespace: 'u1' }, 'RedisSessionStore.load').key; // 'u1:s1'
 * redisSessionKeyOf('\uD800', undefined, 'RedisSessionStore.load'); // throws SessionIdError
 * ```
 */
export const redisSessionKeyOf = (
  sessionId: unknown,
  options: unknown,
  api: string,
): SessionKey => {
  const where = sessionKeyOf(sessionId, options, api);
  for (const [field, value] of [
    ['sessionId', where.id],
    ['namespace', where.namespace],
  ] as const) {
    if (value !== undefined && !isRedisSafeText(value)) {
      throw new SessionIdError(
        api,
        field,
        `${field} must be well-formed Unicode to be stored in Redis (it has a lone surrogate, which UTF-8 cannot carry)`,
      );
    }
  }
  return where;
};
