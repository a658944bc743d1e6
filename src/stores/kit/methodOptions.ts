import { MemoryArgumentError } from '../../errors/memoryErrors';
import { readOption } from '../../internal/readOption';
import { readOptionFields } from '../../internal/readOptionFields';

/**
 * The session-store methods whose options {@link checkSessionOptions} knows.
 *
 * @example
 * ```ts
 * const method: SessionMethod = 'save';
 * ```
 */
export type SessionMethod = 'save' | 'branch' | 'load' | 'exists' | 'delete' | 'search';

/**
 * The event-store methods whose options {@link checkEventOptions} knows.
 *
 * @example
 * ```ts
 * const method: EventMethod = 'append';
 * ```
 */
export type EventMethod = 'append' | 'read' | 'load' | 'streams' | 'delete' | 'subscribe';

/**
 * The `KnowledgeStore` methods whose options {@link checkKnowledgeOptions} knows.
 *
 * @example
 * ```ts
 * const method: KnowledgeMethod = 'save';
 * ```
 */
export type KnowledgeMethod = 'load' | 'save' | 'delete' | 'list';

/** The options each `SessionStore` method reads. */
const SESSION_METHOD_OPTIONS = {
  save: ['namespace', 'expectedRevision'],
  branch: ['namespace', 'expectedRevision'],
  load: ['namespace'],
  exists: ['namespace'],
  delete: ['namespace'],
  search: ['namespace', 'limit'],
} as const satisfies Record<SessionMethod, readonly string[]>;

/** The options each `EventStore` method reads (`subscribe`: the Redis store's). */
const EVENT_METHOD_OPTIONS = {
  append: ['namespace', 'expectedVersion', 'config'],
  read: ['namespace', 'fromVersion', 'toVersion'],
  load: ['namespace', 'atVersion'],
  streams: ['namespace'],
  delete: ['namespace'],
  subscribe: ['namespace', 'onError'],
} as const satisfies Record<EventMethod, readonly string[]>;

/** The options each `KnowledgeStore` method reads. */
const KNOWLEDGE_METHOD_OPTIONS = {
  load: ['namespace'],
  save: ['namespace', 'expectedRevision'],
  delete: ['namespace'],
  list: ['namespace'],
} as const satisfies Record<KnowledgeMethod, readonly string[]>;

/** Names a caller may use for an option, from other stores' APIs. */
const HINTS: Readonly<Record<string, string>> = {
  ns: 'namespace',
  revision: 'expectedRevision',
  version: 'expectedVersion',
  from: 'fromVersion',
  to: 'toVersion',
  at: 'atVersion',
};

/** The knowledge stores' names for a did-you-mean (fewer: they have no versions). */
const KNOWLEDGE_HINTS: Readonly<Record<string, string>> = {
  ns: 'namespace',
  revision: 'expectedRevision',
};

/** No options: what a method's options that are not an object give (the other checks name them). */
const NONE: Readonly<Record<string, unknown>> = Object.freeze({});

const readKnown = (
  options: unknown,
  known: readonly string[],
  api: string,
  hints = HINTS,
): Readonly<Record<string, unknown>> =>
  typeof options !== 'object' || options === null
    ? NONE
    : readOptionFields(options, known, api, { hints });

/**
 * Refuses a `SessionStore` method's options that hold a key the method does not read: a
 * misspelled `{ expectedrevision: 3 }` would save without the revision check, `{ namespce }` into
 * the wrong namespace. Options that are not an object are left to the other checks
 * (`sessionKeyOf` names them). Every store calls it first in each method; a custom store should
 * too. It returns the options the method reads, each read once: a method that reads its options
 * from the copy (`search`'s `namespace` and `limit`) never meets a getter or Proxy trap again.
 *
 * @param options - the options as given
 * @param method - the method called
 * @param api - the calling method, for the error
 * @returns the known options given, in a new plain object (`{}` when `options` is not an object)
 * @throws MemoryArgumentError naming the key, with a did-you-mean; for an array; or for options
 *   that cannot be read (a getter or a Proxy trap that throws, a revoked Proxy), with the error as
 *   `cause`
 * @example
 * ```ts
 * checkSessionOptions({ namespace: 'u1', expectedRevision: 2 }, 'save', 'MyStore.save'); // ok
 * checkSessionOptions({ expectedrevision: 2 }, 'save', 'MyStore.save');
 * // MemoryArgumentError: MyStore.save: options.expectedrevision is not an option (did you mean expectedRevision?); …
 * const { namespace, limit } = checkSessionOptions({ limit: 5 }, 'search', 'MyStore.search');
 * ```
 */
export const checkSessionOptions = (
  options: unknown,
  method: SessionMethod,
  api: string,
): Readonly<Record<string, unknown>> => readKnown(options, SESSION_METHOD_OPTIONS[method], api);

/**
 * Refuses an `EventStore` method's options that hold a key the method does not read (a
 * misspelled `{ atversion: 3 }` would load the head instead of version 3). Options that are not
 * an object are left to the other checks. Every store calls it first in each method (`append`
 * through `checkAppend`); a custom store should too. It returns the options the method reads,
 * each read once (`streams` reads its `namespace` from the copy).
 *
 * @param options - the options as given
 * @param method - the method called
 * @param api - the calling method, for the error
 * @returns the known options given, in a new plain object (`{}` when `options` is not an object)
 * @throws MemoryArgumentError naming the key, with a did-you-mean; for an array; or for options
 *   that cannot be read (a getter or a Proxy trap that throws, a revoked Proxy), with the error as
 *   `cause`
 * @example
 * ```ts
 * checkEventOptions({ atVersion: 3 }, 'load', 'MyStore.load'); // ok
 * checkEventOptions({ atversion: 3 }, 'load', 'MyStore.load');
 * // MemoryArgumentError: MyStore.load: options.atversion is not an option (did you mean atVersion?); …
 * const { namespace } = checkEventOptions({ namespace: 'u1' }, 'streams', 'MyStore.streams');
 * ```
 */
export const checkEventOptions = (
  options: unknown,
  method: EventMethod,
  api: string,
): Readonly<Record<string, unknown>> => readKnown(options, EVENT_METHOD_OPTIONS[method], api);

/**
 * Refuses a `KnowledgeStore` method's options that hold a key the method does not read (a
 * misspelled `{ expectedrevision: 3 }` would save without the revision check). Options that are
 * not an object are left to `sessionKeyOf`, which names them. Every knowledge store calls it
 * first in each method; a custom one should too. It returns the options the method reads, each
 * read once.
 *
 * @param options - the options as given
 * @param method - the method called
 * @param api - the calling method, for the error
 * @returns the known options given, in a new plain object (`{}` when `options` is not an object)
 * @throws MemoryArgumentError naming the key, with a did-you-mean; for an array; or for options
 *   that cannot be read (a getter or a Proxy trap that throws, a revoked Proxy), with the error as
 *   `cause`
 * @example
 * ```ts
 * checkKnowledgeOptions({ namespace: 'acme' }, 'load', 'MyStore.load'); // ok
 * checkKnowledgeOptions({ namespce: 'acme' }, 'load', 'MyStore.load'); // throws: … did you mean namespace?
 * ```
 */
export const checkKnowledgeOptions = (
  options: unknown,
  method: KnowledgeMethod,
  api: string,
): Readonly<Record<string, unknown>> =>
  readKnown(options, KNOWLEDGE_METHOD_OPTIONS[method], api, KNOWLEDGE_HINTS);

/**
 * The `namespace` of `list`'s options, read once (`undefined` when absent); validate it with
 * `namespaceOf`.
 *
 * @throws MemoryArgumentError when the options are not an object, or cannot be read (a getter or
 *   a Proxy trap that throws, a revoked Proxy: with the error as `cause`)
 * @example
 * ```ts
 * namespaceOf(listNamespace({ namespace: 'acme' }, 'MyStore.list'), 'MyStore.list'); // 'acme'
 * ```
 */
export const listNamespace = (options: unknown, api: string): unknown => {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') {
    throw new MemoryArgumentError(api, `options must be an object such as { namespace: 'acme' }`);
  }
  return readOption(options, 'namespace', api);
};
