import { type SessionAddress } from 'conversation-memory';
import {
  isStorageKey,
  parseSessionKey,
  type SessionKey,
  sessionKeyOf,
} from 'conversation-memory/store-kit';

/**
 * The key of the row the reference (selectools) wrote for a pair, when this store reads it as
 * that pair's session: its `ns:id` (or bare id) when that is not our storage key and no pair of
 * ours is stored under it (`isStorageKey` is false: `50%`, ours `50%25`), so reading it can never
 * read another pair's session. `undefined` for every other pair (its reference key is its storage
 * key, or another pair's: the bare id `a:b` was stored as `a:b`, which is namespace `a`, id `b`).
 *
 * @param where - the pair, validated
 * @returns the reference row's key, or `undefined`
 * @example
 * ```ts
 * referenceRowKey(sessionKeyOf('50%')); // '50%' (the storage key is '50%25')
 * referenceRowKey(sessionKeyOf('s1', { namespace: 'u1' })); // undefined: the key is 'u1:s1' already
 * referenceRowKey(sessionKeyOf('a:b')); // undefined: 'a:b' is namespace 'a', id 'b'
 * ```
 */
export const referenceRowKey = (where: SessionKey): string | undefined =>
  where.referenceKey !== where.key && !isStorageKey(where.referenceKey)
    ? where.referenceKey
    : undefined;

/**
 * The pair a row's key stands for, as `list` and `search` report it: a storage key as
 * `parseSessionKey` reads it; any other key (a row the reference wrote) as the reference wrote it,
 * `ns:id` split at its first `:` with nothing unescaped (a bare id when it has no `:`), which is
 * the pair whose {@link referenceRowKey} it is, so `load` reads it back.
 *
 * @example
 * ```ts
 * rowAddressOf('u1:s1'); // { id: 's1', namespace: 'u1' }
 * rowAddressOf('50%'); // { id: '50%' }
 * rowAddressOf('a%3A%:x'); // { id: 'x', namespace: 'a%3A%' } (not a storage key)
 * ```
 */
export const rowAddressOf = (key: string): SessionAddress => {
  if (isStorageKey(key)) {
    const { id, namespace } = parseSessionKey(key);
    return namespace === undefined ? { id } : { id, namespace };
  }
  const colon = key.indexOf(':');
  return colon < 0 ? { id: key } : { id: key.slice(colon + 1), namespace: key.slice(0, colon) };
};

/**
 * The storage key of the pair a reference row stands for (see {@link rowAddressOf}), whose row,
 * when there is one, takes its place (`load` reads that one, `list` and `search` skip the
 * reference row); `undefined` for a storage key, or a key that is no valid pair.
 *
 * @example
 * ```ts
 * shadowingKeyOf('50%'); // '50%25'
 * shadowingKeyOf('u1:s1'); // undefined
 * ```
 */
export const shadowingKeyOf = (key: string): string | undefined => {
  if (isStorageKey(key)) return undefined;
  const { id, namespace } = rowAddressOf(key);
  try {
    return sessionKeyOf(id, { namespace }).key;
  } catch {
    return undefined;
  }
};
