import { MemoryArgumentError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';

/**
 * Options of a UI message stream store.
 *
 * @example
 * ```ts
 * const options: UIMessageStreamStoreOptions = { ttl: 5 * 60_000, linger: 30_000 };
 * ```
 */
export interface UIMessageStreamStoreOptions {
  /** An unfinished stream not written for this long (ms) is dropped. Default 10 minutes. */
  readonly ttl?: number;
  /** How long (ms) an ended stream stays readable. Default 60 s. */
  readonly linger?: number;
  /** The most chunks one stream holds. Default 100,000. */
  readonly maxChunks?: number;
  /** The most bytes of JSON one stream holds. Default 16 MiB. */
  readonly maxBytes?: number;
  /** The clock (ms since the epoch), for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** The options with their defaults, checked. @internal */
export interface CheckedStreamStoreOptions {
  readonly ttl: number;
  readonly linger: number;
  readonly maxChunks: number;
  readonly maxBytes: number;
  readonly now: () => number;
}

const KEYS = ['ttl', 'linger', 'maxChunks', 'maxBytes', 'now'];

const positive = (api: string, key: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new MemoryArgumentError(
      api,
      `options.${key} must be a positive integer, received ${describeValue(value)}`,
    );
  }
  return value;
};

/**
 * Reads a stream store's options: unknown keys and bad values are a `MemoryArgumentError`
 * naming the option and the value.
 *
 * @param api - the call, for errors
 * @param options - what was given
 * @returns the options with their defaults
 * @example
 * ```ts
 * checkStreamStoreOptions('createMemoryUIMessageStreamStore', { ttl: 1000 }).linger; // 60000
 * ```
 * @internal
 */
export const checkStreamStoreOptions = (
  api: string,
  options: unknown,
): CheckedStreamStoreOptions => {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new MemoryArgumentError(
      api,
      `options must be an object, received ${describeValue(options)}`,
    );
  }
  const given = (options ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!KEYS.includes(key)) {
      throw new MemoryArgumentError(
        api,
        `options.${key} is not an option (options: ${KEYS.join(', ')})`,
      );
    }
  }
  const now = given['now'];
  if (now !== undefined && typeof now !== 'function') {
    throw new MemoryArgumentError(
      api,
      `options.now must be a function, received ${describeValue(now)}`,
    );
  }
  return {
    ttl: positive(api, 'ttl', given['ttl'], 10 * 60_000),
    linger: positive(api, 'linger', given['linger'], 60_000),
    maxChunks: positive(api, 'maxChunks', given['maxChunks'], 100_000),
    maxBytes: positive(api, 'maxBytes', given['maxBytes'], 16 * 1024 * 1024),
    now: (now as (() => number) | undefined) ?? Date.now,
  };
};
