import { sessionKeyOf } from 'conversation-memory/store-kit';

/**
 * What a row is about: its storage key, its id and its namespace (`undefined` for none), checked
 * against each other.
 *
 * @example
 * ```ts
 * const address: RowAddress = { key: 'u1:s1', id: 's1', namespace: 'u1' };
 * ```
 */
export interface RowAddress {
  readonly key: string;
  readonly id: string;
  readonly namespace: string | undefined;
}

/**
 * The address of a row of `sessions` (`session_key`, `session_id`, `namespace`) or `knowledge`
 * (`record_key`, `record_id`, `namespace`), when its three columns agree (the key is the kit's
 * storage key of the id and namespace); `undefined` otherwise (a row changed by another program or
 * by hand).
 *
 * @param key - the key column's value, as read
 * @param id - the id column's value, as read
 * @param namespace - the `namespace` column's value, as read (`null` for none)
 * @example
 * ```ts
 * readRowAddress('u1:s1', 's1', 'u1'); // { key: 'u1:s1', id: 's1', namespace: 'u1' }
 * readRowAddress('s2', 's1', null); // undefined
 * ```
 */
export const readRowAddress = (
  key: unknown,
  id: unknown,
  namespace: unknown,
): RowAddress | undefined => {
  if (typeof key !== 'string' || typeof id !== 'string') return undefined;
  if (namespace !== null && typeof namespace !== 'string') return undefined;
  try {
    const where = sessionKeyOf(id, { namespace: namespace ?? undefined });
    return where.key === key ? { key, id, namespace: where.namespace } : undefined;
  } catch {
    return undefined;
  }
};
