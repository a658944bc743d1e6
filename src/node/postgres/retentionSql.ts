import { namespaceKeyPrefix } from 'conversation-memory/store-kit';

/**
 * SQL text shared by the Postgres stores' retention (sweep, deleteNamespace, TTL): a row's
 * expiry as the kit's `isSessionExpired` decides it, and the range of storage keys of one
 * namespace. Values are always parameters; these only build the text around them.
 */

/**
 * Whether `row` has expired: more than `ttl` seconds since its `updated_at`, by the store's clock
 * `now` (`now`, `ttl`: parameter references such as `$2`; a `NULL` TTL never expires anything, nor
 * does a row without `updated_at`).
 *
 * @example
 * ```ts
 * `SELECT stream_key FROM s.event_streams AS h WHERE NOT ${expiredSql('$1', '$2', 'h')}`;
 * ```
 */
export const expiredSql = (now: string, ttl: string, row: string): string =>
  `(${ttl}::float8 IS NOT NULL AND ${row}.updated_at IS NOT NULL AND ${now}::float8 - ${row}.updated_at > ${ttl}::float8)`;

/**
 * Whether the storage key `column` is one of the namespace's keys, given the namespace's key
 * prefix (`from`) and its successor (`to`) as parameters: a byte-order (`COLLATE "C"`) range that
 * the b-tree index of a `COLLATE "C"` key column serves, and `starts_with` for exactness (the
 * kit's `namespaceKeys` filter).
 *
 * @example
 * ```ts
 * `DELETE FROM s.sessions WHERE ${inNamespaceSql('session_key', '$1', '$2')}`;
 * ```
 */
export const inNamespaceSql = (column: string, from: string, to: string): string =>
  `(${column} COLLATE "C" >= ${from}::text AND ${column} COLLATE "C" < ${to}::text AND starts_with(${column}, ${from}::text))`;

/**
 * The parameters of {@link inNamespaceSql} for `namespace`: its key prefix (`a:`) and the least
 * string above every key with that prefix (`a;`: the prefix ends with `:`, and `;` follows it).
 *
 * @example
 * ```ts
 * namespaceRange('a:b'); // ['a%3Ab:', 'a%3Ab;']
 * ```
 */
export const namespaceRange = (namespace: string): readonly [string, string] => {
  const prefix = namespaceKeyPrefix(namespace);
  return [prefix, `${prefix.slice(0, -1)};`];
};
