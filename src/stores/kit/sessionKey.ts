import { SessionIdError } from '../../errors/sessionErrors';
import { readOption } from '../../internal/readOption';
import { codePointLength } from '../../util/codePoints';
import { describeValue } from '../../util/describeValue';

/**
 * The longest id or namespace, in characters (code points), as in the reference.
 *
 * @example
 * ```ts
 * MAX_SESSION_ID_LENGTH; // 512
 * ```
 */
export const MAX_SESSION_ID_LENGTH = 512;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

const check = (api: string, field: 'sessionId' | 'namespace', value: unknown): string => {
  if (typeof value !== 'string') {
    throw new SessionIdError(
      api,
      field,
      `${field} must be a string, received ${describeValue(value)}`,
    );
  }
  if (value === '') {
    throw new SessionIdError(
      api,
      field,
      field === 'sessionId'
        ? 'sessionId must not be empty'
        : 'namespace must not be empty when provided',
    );
  }
  if (value.includes('\u0000')) {
    throw new SessionIdError(
      api,
      field,
      `${field} must not contain null bytes: ${describeValue(value)}`,
    );
  }
  if (LONE_SURROGATE.test(value)) {
    throw new SessionIdError(
      api,
      field,
      `${field} must be well-formed Unicode (it has a lone surrogate, which UTF-8 files, SQLite and Redis cannot keep apart): ${describeValue(value)}`,
    );
  }
  const length = codePointLength(value);
  if (length > MAX_SESSION_ID_LENGTH) {
    throw new SessionIdError(
      api,
      field,
      `${field} too long (${length} chars, max ${MAX_SESSION_ID_LENGTH}): ${describeValue(value)}`,
    );
  }
  return value;
};

/**
 * Where a listed or found session lives: its `id` and its `namespace` (absent when it has none),
 * exactly what {@link SessionStore.load} takes to read it back.
 *
 * @example
 * ```ts
 * const { id, namespace } = entry;
 * await store.load(id, { namespace });
 * ```
 */
export interface SessionAddress {
  readonly id: string;
  readonly namespace?: string;
}

/**
 * A validated session address: the id, the namespace (or `undefined`), the storage `key` every
 * store files the session under, and the `referenceKey` selectools would have used.
 *
 * The storage key is injective: two different (namespace, id) pairs never share one. It is the
 * namespace and the id joined by `:`, with every `%` and `:` of the namespace escaped (`%25`,
 * `%3A`); without a namespace it is the id with the same escapes. So the first `:` of a key always
 * ends its namespace, and a key with no `:` has none. For the ids and namespaces people use (no `:`
 * or `%` in a namespace or in a bare id) the key is the reference's own `ns:id` or `id`, so a
 * reference database or directory reads as it is. The reference's key was ambiguous: its
 * `(namespace 'a:b', id 'c')` and `(namespace 'a', id 'b:c')` were one session.
 *
 * @example
 * ```ts
 * const where: SessionKey = sessionKeyOf('s1', { namespace: 'u1' }); // { id: 's1', namespace: 'u1', key: 'u1:s1', referenceKey: 'u1:s1' }
 * ```
 */
export interface SessionKey {
  readonly id: string;
  readonly namespace: string | undefined;
  /** The injective storage key (`u1:s1`; `a%3Ab:c` for namespace `a:b`, id `c`). */
  readonly key: string;
  /** selectools' `_make_key`: `ns:id`, or the bare id. Not injective: read legacy records only. */
  readonly referenceKey: string;
}

/** Escapes `%` and `:` (in that order), so the escaped text has no `:`. */
const escapePart = (text: string): string =>
  text.includes('%') || text.includes(':')
    ? text.replaceAll('%', '%25').replaceAll(':', '%3A')
    : text;

/** Reverses {@link escapePart}; a `%` that starts no escape is kept as it is. */
const unescapePart = (text: string): string =>
  text.includes('%')
    ? text.replace(/%(25|3A)/gu, (escape) => (escape === '%25' ? '%' : ':'))
    : text;

/**
 * The storage key of a validated pair (see {@link SessionKey}).
 *
 * @internal
 */
const storageKey = (id: string, namespace: string | undefined): string =>
  namespace === undefined ? escapePart(id) : `${escapePart(namespace)}:${id}`;

/**
 * Validates an id and an optional namespace with the reference's rules (not empty, no null byte,
 * at most 512 characters; a namespace of `''` is refused too), and one of ours (well-formed
 * Unicode: no lone surrogate), and builds the injective storage key. Every store calls it first; a
 * custom store should too.
 *
 * @param sessionId - the id as given
 * @param options - the options as given (only `namespace` is read, once)
 * @param api - the calling method, for the error
 * @throws SessionIdError naming the field and the value; MemoryArgumentError when
 *   `options.namespace` cannot be read (a throwing getter, a revoked Proxy), with the error as `cause`
 * @example
 * ```ts
 * sessionKeyOf('s1').key; // 's1'
 * sessionKeyOf('s1', { namespace: 'u1' }).key; // 'u1:s1'
 * sessionKeyOf('c', { namespace: 'a:b' }).key; // 'a%3Ab:c'
 * sessionKeyOf('b:c', { namespace: 'a' }).key; // 'a:b:c'
 * sessionKeyOf(''); // throws SessionIdError: sessionId must not be empty
 * ```
 */
export const sessionKeyOf = (
  sessionId: unknown,
  options?: unknown,
  api = 'sessionKeyOf',
): SessionKey => {
  const id = check(api, 'sessionId', sessionId);
  let namespace: unknown;
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object') {
      throw new SessionIdError(
        api,
        'namespace',
        `options must be an object, received ${describeValue(options)}`,
      );
    }
    namespace = readOption(options, 'namespace', api);
  }
  if (namespace === undefined || namespace === null) {
    return { id, namespace: undefined, key: storageKey(id, undefined), referenceKey: id };
  }
  const ns = check(api, 'namespace', namespace);
  return { id, namespace: ns, key: storageKey(id, ns), referenceKey: `${ns}:${id}` };
};

/**
 * The namespace and id a storage key stands for (the inverse of {@link sessionKeyOf}'s `key`):
 * text before the first `:` is the namespace, unescaped; no `:`, no namespace. A key written by
 * selectools is read the same way, so its `ns:id` keys mean what they meant there; see the README
 * for the rare keys that were ambiguous there. Never throws; the parts are not validated.
 *
 * @param key - a storage key, as a store found it
 * @returns `{ id, namespace }` (`namespace` is `undefined` for a bare key)
 * @example
 * ```ts
 * parseSessionKey('u1:s1'); // { id: 's1', namespace: 'u1' }
 * parseSessionKey('a%3Ab:c'); // { id: 'c', namespace: 'a:b' }
 * parseSessionKey('s1'); // { id: 's1', namespace: undefined }
 * ```
 */
export const parseSessionKey = (
  key: string,
): { readonly id: string; readonly namespace: string | undefined } => {
  const colon = key.indexOf(':');
  return colon < 0
    ? { id: unescapePart(key), namespace: undefined }
    : { id: key.slice(colon + 1), namespace: unescapePart(key.slice(0, colon)) };
};

/**
 * The `id` and `namespace` fields of a list or search entry for a storage key (`namespace` left
 * out when there is none), as `load` takes them back.
 *
 * @example
 * ```ts
 * sessionAddressOf('u1:s1'); // { id: 's1', namespace: 'u1' }
 * sessionAddressOf('s1'); // { id: 's1' }
 * ```
 */
export const sessionAddressOf = (
  key: string,
): { readonly id: string; readonly namespace?: string } => {
  const { id, namespace } = parseSessionKey(key);
  return namespace === undefined ? { id } : { id, namespace };
};

/**
 * Whether `key` is a storage key {@link sessionKeyOf} makes (its parts re-escape to it). A key
 * that is not (a selectools record whose bare id has a `%` that starts no escape, `50%`) belongs
 * to no pair of ours, so a store may read it as that pair's legacy record without any clash.
 *
 * @example
 * ```ts
 * isStorageKey('u1:s1'); // true
 * isStorageKey('50%'); // false (ours is '50%25')
 * ```
 */
export const isStorageKey = (key: string): boolean => {
  const { id, namespace } = parseSessionKey(key);
  return storageKey(id, namespace) === key;
};

/**
 * The prefix every storage key of a namespace starts with (`u1:`), and no other key does: the
 * namespace escaped, then `:`. Use it to list or search one namespace by key.
 *
 * @example
 * ```ts
 * namespaceKeyPrefix('u1'); // 'u1:'
 * namespaceKeyPrefix('a:b'); // 'a%3Ab:'
 * ```
 */
export const namespaceKeyPrefix = (namespace: string): string => `${escapePart(namespace)}:`;

/**
 * The storage keys of one namespace, as a listing or a search by key filters them: see
 * {@link namespaceKeys}.
 *
 * @example
 * ```ts
 * const keys: NamespaceKeys = namespaceKeys('u1');
 * ```
 */
export interface NamespaceKeys {
  /** What every key of the namespace starts with (`u1:`); `''` for no namespace (every key). */
  readonly prefix: string;
  /** Whether `key` is a storage key of the namespace (every key, for no namespace). */
  readonly includes: (key: string) => boolean;
  /**
   * The rest of `key` after {@link NamespaceKeys.prefix} (its escaped id; the whole key for no
   * namespace), or `undefined` when `key` is not in the namespace.
   */
  readonly idOf: (key: string) => string | undefined;
}

/**
 * The storage keys of `namespace` (a namespace checked by {@link namespaceOf}; `undefined`: every
 * key), for a store that lists or searches one namespace by key: its `prefix` (to scan for, as a
 * SQL `LIKE` or a Redis `SCAN` pattern would), `includes(key)` and `idOf(key)`. One filter for
 * every store, so a namespace lists the same keys in each.
 *
 * @param namespace - the namespace, or `undefined` for all of them
 * @returns the namespace's keys
 * @example
 * ```ts
 * const keys = namespaceKeys('a:b');
 * keys.prefix; // 'a%3Ab:'
 * keys.includes('a%3Ab:s1'); // true
 * keys.idOf('a%3Ab:s1'); // 's1'
 * keys.idOf('u1:s1'); // undefined
 * namespaceKeys(undefined).idOf('u1:s1'); // 'u1:s1'
 * ```
 */
export const namespaceKeys = (namespace: string | undefined): NamespaceKeys => {
  const prefix = namespace === undefined ? '' : namespaceKeyPrefix(namespace);
  return {
    prefix,
    includes: (key) => key.startsWith(prefix),
    idOf: (key) => (key.startsWith(prefix) ? key.slice(prefix.length) : undefined),
  };
};

/**
 * Validates a namespace alone (as `search` takes it): `undefined` when none was given.
 *
 * @example
 * ```ts
 * namespaceOf(undefined); // undefined
 * namespaceOf('u1'); // 'u1'
 * ```
 */
export const namespaceOf = (namespace: unknown, api = 'namespaceOf'): string | undefined =>
  namespace === undefined || namespace === null ? undefined : check(api, 'namespace', namespace);
