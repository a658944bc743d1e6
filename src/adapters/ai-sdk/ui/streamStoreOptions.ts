import { MemoryArgumentError } from 'conversation-memory';
import { describeValue, readOptionFields } from 'conversation-memory/store-kit';

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
 * Reads a stream store's options once (`readOptionFields`): unknown keys and bad values are a
 * `MemoryArgumentError` naming the option and the value.
 *
 * @param api - the call, for errors
 * @param options - what was given
 * @param more - the store's own further keys (returned in `more` as given, for it to check)
 * @returns the options with their defaults
 * @example
 * ```ts
 * checkStreamStoreOptions('createMemoryUIMessageStreamStore', { ttl: 1000 }).linger; // 60000
 * ```
 * @internal
 */
export const checkStreamStoreOptions = <K extends string = never>(
  api: string,
  options: unknown,
  more: readonly K[] = [],
): CheckedStreamStoreOptions & { readonly more: Partial<Record<K, unknown>> } => {
  const given = readOptionFields(options, [...KEYS, ...more] as readonly string[], api, {
    example: '{ ttl: 600000 }',
  }) as Record<string, unknown>;
  const now = given['now'];
  if (now !== undefined && typeof now !== 'function') {
    throw new MemoryArgumentError(
      api,
      `options.now must be a function, received ${describeValue(now)}`,
    );
  }
  const rest: Partial<Record<K, unknown>> = {};
  for (const key of more) if (given[key] !== undefined) rest[key] = given[key];
  return {
    ttl: positive(api, 'ttl', given['ttl'], 10 * 60_000),
    linger: positive(api, 'linger', given['linger'], 60_000),
    maxChunks: positive(api, 'maxChunks', given['maxChunks'], 100_000),
    maxBytes: positive(api, 'maxBytes', given['maxBytes'], 16 * 1024 * 1024),
    now: (now as (() => number) | undefined) ?? Date.now,
    more: rest,
  };
};
