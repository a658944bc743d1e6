/**
 * Seconds added to the TTL for the Redis expiry, which is only garbage collection: the store
 * decides expiry itself with its own clock (`isSessionExpired`), so Redis must never delete a
 * session that a client still calls live, even one whose clock lags the saving client's by up to
 * this margin.
 *
 * @example
 * ```ts
 * REDIS_EXPIRY_MARGIN_SECONDS; // 300
 * ```
 */
export const REDIS_EXPIRY_MARGIN_SECONDS = 300;

/** Past ten years an expiry collects nothing worth having; the key is kept without one. */
const MAX_EXPIRY_SECONDS = 10 * 365 * 24 * 3600;

/**
 * The `EXPIRE` seconds for a session saved with a TTL: the TTL rounded up to whole seconds plus
 * {@link REDIS_EXPIRY_MARGIN_SECONDS}; `undefined` (no Redis expiry) without a TTL or when that
 * would be over ten years. A TTL of 0 never gets here (`sessionTtlOf` refuses it), so Redis never
 * sees an expiry of 0 (the reference's `SETEX 0`).
 *
 * @example
 * ```ts
 * redisExpirySeconds(60.2); // 61 + 300
 * redisExpirySeconds(undefined); // undefined
 * ```
 */
export const redisExpirySeconds = (ttl: number | undefined): number | undefined => {
  if (ttl === undefined) return undefined;
  const seconds = Math.ceil(ttl) + REDIS_EXPIRY_MARGIN_SECONDS;
  return seconds > MAX_EXPIRY_SECONDS ? undefined : seconds;
};
