import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';

/**
 * Reads a store's `defaultTtl`: `undefined`/`null` for none, else a positive finite number of
 * seconds. `0` is refused (the reference sent it to Redis as `SETEX 0`, which Redis rejects).
 *
 * @throws MemoryArgumentError naming the value
 * @example
 * ```ts
 * sessionTtlOf(3600); // 3600
 * sessionTtlOf(0); // throws: options.defaultTtl must be a positive number of seconds …
 * ```
 */
export const sessionTtlOf = (ttl: unknown, api = 'sessionTtlOf'): number | undefined => {
  if (ttl === undefined || ttl === null) return undefined;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw new MemoryArgumentError(
      api,
      `options.defaultTtl must be a positive number of seconds (or omitted for no expiry), received ${describeValue(ttl)}`,
    );
  }
  return ttl;
};

/**
 * Reads a store's clock: the given `now` (Unix seconds) or the system clock.
 *
 * @example
 * ```ts
 * sessionClockOf(undefined)(); // Date.now() / 1000
 * ```
 */
export const sessionClockOf = (now: unknown, api = 'sessionClockOf'): (() => number) => {
  if (now === undefined) return () => Date.now() / 1000;
  if (typeof now !== 'function') {
    throw new MemoryArgumentError(
      api,
      `options.now must be a function returning Unix seconds, received ${describeValue(now)}`,
    );
  }
  const clock = now as () => unknown;
  // What it returns is written into records: a NaN would make every TTL check false forever.
  return () => {
    const seconds = clock();
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
      throw new MemoryArgumentError(
        api,
        `options.now() must return Unix seconds as a finite number, returned ${describeValue(seconds)}`,
      );
    }
    return seconds;
  };
};

/**
 * The reference's sliding expiry: expired when more than `ttl` seconds passed since the last
 * save (strictly more); never without a TTL.
 *
 * @example
 * ```ts
 * isSessionExpired(1000, 60, 1061); // true
 * isSessionExpired(1000, 60, 1060); // false
 * ```
 */
export const isSessionExpired = (
  updatedAt: number,
  ttl: number | undefined,
  now: number,
): boolean => ttl !== undefined && now - updatedAt > ttl;
