import { constants as bufferConstants } from 'node:buffer';
import { MemoryArgumentError, type SessionStoreOptions } from 'conversation-memory';
import {
  describeValue,
  readOptionFields,
  sessionClockOf,
  sessionTtlOf,
} from 'conversation-memory/store-kit';
import { DEFAULT_MAX_FILE_BYTES } from './readRegularFile';

/**
 * Options of `JsonFileSessionStore`.
 *
 * @example
 * ```ts
 * const options: JsonFileSessionStoreOptions = { directory: './sessions', defaultTtl: 86_400 };
 * ```
 */
export interface JsonFileSessionStoreOptions extends SessionStoreOptions {
  /**
   * The directory of session files; created (with its parents) when missing as the store is made.
   * One removed later is not made again: calls then reject with `StoreUnavailableError` saying so.
   */
  readonly directory: string;
  /** How long a save (or delete) waits for another process's lock, in ms (default 10,000). */
  readonly lockWaitMs?: number | undefined;
  /** A lock older than this (ms) is broken even if its holder seems alive (default 30,000). */
  readonly staleLockMs?: number | undefined;
  /**
   * The largest session file read or written, in bytes (default 128 MiB; at most 536,870,888,
   * Node's longest string). A larger file is corrupt to this store (not read); a save that
   * would write one is refused with `MemoryArgumentError`.
   */
  readonly maxFileBytes?: number | undefined;
}

/**
 * The options of `JsonFileSessionStore`, checked, with their defaults (`directory` as given: the
 * store resolves it).
 *
 * @example
 * ```ts
 * const settings: SessionStoreSettings = readSessionStoreOptions({ directory: './s' }, 'JsonFileSessionStore');
 * settings.lockWaitMs; // 10000
 * ```
 */
export interface SessionStoreSettings {
  readonly directory: string;
  readonly ttl: number | undefined;
  readonly now: () => number;
  readonly lockWaitMs: number;
  readonly staleLockMs: number;
  readonly maxFileBytes: number;
}

const positiveMs = (value: unknown, name: string, fallback: number, api: string): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new MemoryArgumentError(
      api,
      `options.${name} must be a number of milliseconds ≥ 0, received ${describeValue(value)}`,
    );
  }
  return value;
};

const fileBytes = (value: unknown, api: string): number => {
  if (value === undefined) return DEFAULT_MAX_FILE_BYTES;
  const max = bufferConstants.MAX_STRING_LENGTH;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new MemoryArgumentError(
      api,
      `options.maxFileBytes must be an integer number of bytes from 1 to ${max}, received ${describeValue(value)}`,
    );
  }
  return value;
};

/**
 * Reads the options of `JsonFileSessionStore` once (through the kit's `readOptionFields`, so a
 * misspelled key is refused: `{ ttl: 60 }` would keep sessions forever) and checks them, before
 * the folder is made: options that cannot be read create nothing.
 *
 * @param options - as given
 * @param api - the constructor's name, for the errors
 * @returns the settings
 * @throws MemoryArgumentError naming the option and the value received
 * @example
 * ```ts
 * readSessionStoreOptions({ directory: './sessions', defaultTtl: 60 }, 'JsonFileSessionStore').ttl; // 60
 * ```
 */
export const readSessionStoreOptions = (options: unknown, api: string): SessionStoreSettings => {
  if (typeof options !== 'object' || options === null) {
    throw new MemoryArgumentError(
      api,
      "options must be an object such as { directory: './sessions' }",
    );
  }
  const given = readOptionFields(
    options,
    ['directory', 'defaultTtl', 'now', 'lockWaitMs', 'staleLockMs', 'maxFileBytes'],
    api,
    {
      hints: {
        ttl: 'defaultTtl',
        default_ttl: 'defaultTtl',
        dir: 'directory',
        path: 'directory',
      },
    },
  );
  const { directory } = given;
  if (typeof directory !== 'string' || directory === '') {
    throw new MemoryArgumentError(
      api,
      `options.directory must be a non-empty path, received ${describeValue(directory)}`,
    );
  }
  return {
    directory,
    ttl: sessionTtlOf(given.defaultTtl, api),
    now: sessionClockOf(given.now, api),
    lockWaitMs: positiveMs(given.lockWaitMs, 'lockWaitMs', 10_000, api),
    staleLockMs: positiveMs(given.staleLockMs, 'staleLockMs', 30_000, api),
    maxFileBytes: fileBytes(given.maxFileBytes, api),
  };
};
