import {
  MemoryArgumentError,
  type SessionStoreOptions,
  type StoreExpiryOptions,
} from 'conversation-memory';
import {
  describeValue,
  readOptionFields,
  sessionClockOf,
  sessionTtlOf,
  snapshotEveryOf,
} from 'conversation-memory/store-kit';
import type { PostgresPool } from './pool';

/**
 * The options of the Postgres stores: where the connection comes from (`pool` or
 * `connectionString`), and the `schema` their tables live in; each store's options type adds its
 * own. One reader per store, over the kit's `readOptionFields` (a misspelled key is refused).
 */

/**
 * The schema the stores create their tables in, unless `schema` says otherwise.
 *
 * @example
 * ```ts
 * DEFAULT_POSTGRES_SCHEMA; // 'conversation_memory'
 * ```
 */
export const DEFAULT_POSTGRES_SCHEMA = 'conversation_memory';

/**
 * Where a Postgres store's connection comes from, and its schema. Exactly one of `pool` (the
 * application's `pg.Pool`, which the store uses and never ends) or `connectionString` (the store
 * makes a pool of its own with `pg`, ended by `close()`); `schema` (default
 * `'conversation_memory'`): a plain identifier (letters, digits and `_`, not starting with a
 * digit, at most 63 characters), created with the tables on first use.
 *
 * @example
 * ```ts
 * const options: PostgresConnectionOptions = { connectionString: 'postgres://localhost/app', schema: 'memory' };
 * ```
 */
export interface PostgresConnectionOptions {
  readonly pool?: PostgresPool | undefined;
  readonly connectionString?: string | undefined;
  readonly schema?: string | undefined;
}

/**
 * Options of `PostgresSessionStore`: the connection (`pool` or `connectionString`; `schema`),
 * `defaultTtl` in seconds (sliding, as on the other session stores) and `now` (the clock, Unix
 * seconds).
 *
 * @example
 * ```ts
 * const options: PostgresSessionStoreOptions = { pool, defaultTtl: 86_400 };
 * ```
 */
export interface PostgresSessionStoreOptions
  extends SessionStoreOptions, PostgresConnectionOptions {}

/**
 * Where the connection comes from, checked.
 *
 * @example
 * ```ts
 * const source: PostgresSource = { connectionString: 'postgres://localhost/app' };
 * ```
 */
export type PostgresSource =
  { readonly pool: PostgresPool } | { readonly connectionString: string };

/**
 * The connection options, read and checked once.
 *
 * @example
 * ```ts
 * const read: PostgresConnectionRead = { source: { pool }, schema: 'conversation_memory' };
 * ```
 */
export interface PostgresConnectionRead {
  readonly source: PostgresSource;
  readonly schema: string;
}

const CONNECTION_OPTIONS = ['pool', 'connectionString', 'schema'] as const;

/** A plain identifier: no quoting rules to get wrong, and the same name in every tool. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/u;

const EXAMPLE = "{ connectionString: 'postgres://localhost/app' } or { pool }";

const isPool = (value: unknown): value is PostgresPool =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { query?: unknown }).query === 'function' &&
  typeof (value as { connect?: unknown }).connect === 'function';

const readConnection = (
  given: Partial<Record<(typeof CONNECTION_OPTIONS)[number], unknown>>,
  api: string,
): PostgresConnectionRead => {
  const { pool, connectionString, schema = DEFAULT_POSTGRES_SCHEMA } = given;
  const hasPool = pool !== undefined;
  const hasString = connectionString !== undefined;
  if (hasPool === hasString) {
    throw new MemoryArgumentError(
      api,
      `pass exactly one of options.pool (your pg.Pool) or options.connectionString, such as ${EXAMPLE}`,
    );
  }
  if (hasPool && !isPool(pool)) {
    throw new MemoryArgumentError(
      api,
      `options.pool must be a pg.Pool (an object with query and connect methods), received ${describeValue(pool)}`,
    );
  }
  if (hasString && (typeof connectionString !== 'string' || connectionString.trim() === '')) {
    throw new MemoryArgumentError(
      api,
      `options.connectionString must be a non-empty string such as 'postgres://user@localhost:5432/app', received ${describeValue(connectionString)}`,
    );
  }
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema)) {
    throw new MemoryArgumentError(
      api,
      `options.schema must be a plain identifier (letters, digits and _, not starting with a digit, at most 63 characters), received ${describeValue(schema)}`,
    );
  }
  return {
    source: hasPool
      ? { pool: pool as PostgresPool }
      : { connectionString: connectionString as string },
    schema,
  };
};

/**
 * The expiry options, checked as the session stores check them.
 *
 * @example
 * ```ts
 * const expiry: ExpiryRead = { ttl: undefined, now: () => Date.now() / 1000 };
 * ```
 */
export interface ExpiryRead {
  readonly ttl: number | undefined;
  readonly now: () => number;
}

const EXPIRY_OPTIONS = ['defaultTtl', 'now'] as const;
const EXPIRY_HINTS = { ttl: 'defaultTtl', default_ttl: 'defaultTtl' } as const;

const readExpiry = (
  given: Partial<Record<(typeof EXPIRY_OPTIONS)[number], unknown>>,
  api: string,
): ExpiryRead => ({
  ttl: sessionTtlOf(given.defaultTtl, api),
  now: sessionClockOf(given.now, api),
});

/**
 * The options of `PostgresSessionStore`, read once and checked.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readSessionStoreOptions({ connectionString: 'postgres://localhost/app' }, 'PostgresSessionStore').schema; // 'conversation_memory'
 * ```
 */
export const readSessionStoreOptions = (
  options: unknown,
  api: string,
): PostgresConnectionRead & ExpiryRead => {
  const given = readOptionFields(options ?? null, [...CONNECTION_OPTIONS, ...EXPIRY_OPTIONS], api, {
    example: EXAMPLE,
    hints: { ...EXPIRY_HINTS, url: 'connectionString' },
  });
  return { ...readConnection(given, api), ...readExpiry(given, api) };
};

/**
 * Options of `PostgresEventStore`: the connection (`pool` or `connectionString`; `schema`),
 * `snapshotEvery` (default 256, as on the other event stores), `defaultTtl` (seconds a stream
 * lives after its last append; omitted: forever) and `now` (the clock, Unix seconds).
 *
 * @example
 * ```ts
 * const options: PostgresEventStoreOptions = { pool, snapshotEvery: 128, defaultTtl: 30 * 86_400 };
 * ```
 */
export interface PostgresEventStoreOptions extends PostgresConnectionOptions, StoreExpiryOptions {
  readonly snapshotEvery?: number | undefined;
}

/**
 * The options of `PostgresEventStore`, read once and checked.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readEventStoreOptions({ pool }, 'PostgresEventStore').snapshotEvery; // 256
 * ```
 */
export const readEventStoreOptions = (
  options: unknown,
  api: string,
): PostgresConnectionRead & ExpiryRead & { readonly snapshotEvery: number } => {
  const given = readOptionFields(
    options ?? null,
    [...CONNECTION_OPTIONS, ...EXPIRY_OPTIONS, 'snapshotEvery'],
    api,
    {
      example: EXAMPLE,
      hints: { ...EXPIRY_HINTS, snapshot_every: 'snapshotEvery', url: 'connectionString' },
    },
  );
  return {
    ...readConnection(given, api),
    ...readExpiry(given, api),
    snapshotEvery: snapshotEveryOf(given.snapshotEvery, api),
  };
};

/**
 * Options of `PostgresKnowledgeStore`: the connection (`pool` or `connectionString`; `schema`),
 * `defaultTtl` (seconds a record lives after its last save; omitted: forever) and `now` (the
 * clock, Unix seconds).
 *
 * @example
 * ```ts
 * const options: PostgresKnowledgeStoreOptions = { pool, schema: 'memory', defaultTtl: 90 * 86_400 };
 * ```
 */
export interface PostgresKnowledgeStoreOptions
  extends PostgresConnectionOptions, StoreExpiryOptions {}

/**
 * The options of `PostgresKnowledgeStore`, read once and checked.
 *
 * @throws MemoryArgumentError naming the option
 * @example
 * ```ts
 * readKnowledgeStoreOptions({ pool }, 'PostgresKnowledgeStore').schema; // 'conversation_memory'
 * ```
 */
export const readKnowledgeStoreOptions = (
  options: unknown,
  api: string,
): PostgresConnectionRead & ExpiryRead => {
  const given = readOptionFields(options ?? null, [...CONNECTION_OPTIONS, ...EXPIRY_OPTIONS], api, {
    example: EXAMPLE,
    hints: { ...EXPIRY_HINTS, url: 'connectionString' },
  });
  return { ...readConnection(given, api), ...readExpiry(given, api) };
};
