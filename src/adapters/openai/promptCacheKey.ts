/** The longest `prompt_cache_key` the API accepts. */
export const PROMPT_CACHE_KEY_MAX_LENGTH = 64;

/** A 53-bit hash of a string (cyrb53), as 14 hex digits: deterministic and well spread. */
const hash53 = (text: string): string => {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
};

/**
 * The `prompt_cache_key` sent for a request's `cache.key`: the key itself when it has at most 64
 * characters (the API refuses longer ones with a 400), else its first 49 characters, `~` and a
 * hash of the whole key (64 characters in all): the same key always gives the same value, and
 * two keys that share their first 49 characters still differ.
 *
 * @param key - the request's cache key (a session's or stream's key, or `config.cacheKey`)
 * @returns a key the API accepts
 * @example
 * ```ts
 * promptCacheKey('user-42:thread-7'); // 'user-42:thread-7'
 * promptCacheKey('x'.repeat(80)).length; // 64
 * ```
 * @internal
 */
export const promptCacheKey = (key: string): string =>
  key.length <= PROMPT_CACHE_KEY_MAX_LENGTH
    ? key
    : `${key.slice(0, PROMPT_CACHE_KEY_MAX_LENGTH - 15)}~${hash53(key)}`;
