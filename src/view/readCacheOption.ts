import { MemoryArgumentError } from '../errors/memoryErrors';
import { readOptionFields } from '../internal/readOptionFields';
import type { CacheTtl } from '../model/promptCache';
import { describeValue } from '../util/describeValue';

type ErrorClass = new (api: string, what: string, options?: { cause?: unknown }) => Error;

/**
 * Reads a `cache` option (of `modelView`, and of the agent's config): `true` is the five-minute
 * cache, `{ ttl: '5m' | '1h' }` chooses (`{}` is `'5m'`); absent, `undefined`, `null` and
 * `false` mean no caching. Anything else is an error naming `field` and the value; the object is
 * read once, an unknown key refused.
 *
 * @returns the cache's time to live, or `undefined` for no caching
 * @internal
 */
export const readCacheOption = (
  value: unknown,
  field: string,
  api: string,
  error: ErrorClass = MemoryArgumentError,
): CacheTtl | undefined => {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return '5m';
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new error(
      api,
      `${field} must be true, false or { ttl: '5m' | '1h' }, received ${describeValue(value)}`,
    );
  }
  const { ttl = '5m' } = readOptionFields(value, ['ttl'], api, {
    where: field,
    hints: { TTL: 'ttl', timeToLive: 'ttl', duration: 'ttl', type: 'ttl' },
    error,
  });
  if (ttl !== '5m' && ttl !== '1h') {
    throw new error(api, `${field}.ttl must be '5m' or '1h', received ${describeValue(ttl)}`);
  }
  return ttl;
};
