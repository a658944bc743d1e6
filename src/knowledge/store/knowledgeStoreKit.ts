import { KnowledgeConflictError } from '../../errors/knowledgeStoreErrors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { readOption } from '../../internal/readOption';
import { readOptionFields } from '../../internal/readOptionFields';

/**
 * The `KnowledgeStore` methods whose options {@link checkKnowledgeOptions} knows.
 *
 * @example
 * ```ts
 * const method: KnowledgeMethod = 'save';
 * ```
 */
export type KnowledgeMethod = 'load' | 'save' | 'delete' | 'list';

const KNOWLEDGE_METHOD_OPTIONS = {
  load: ['namespace'],
  save: ['namespace', 'expectedRevision'],
  delete: ['namespace'],
  list: ['namespace'],
} as const satisfies Record<KnowledgeMethod, readonly string[]>;

const HINTS: Readonly<Record<string, string>> = { ns: 'namespace', revision: 'expectedRevision' };

/** No options: what a method's options that are not an object give (`sessionKeyOf` names them). */
const NONE: Readonly<Record<string, unknown>> = Object.freeze({});

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
  typeof options !== 'object' || options === null
    ? NONE
    : readOptionFields(options, KNOWLEDGE_METHOD_OPTIONS[method], api, { hints: HINTS });

/**
 * Refuses a conditional save whose expected revision is not the stored one (`0` when nothing, or
 * only a damaged record, is stored). Call it inside the store's write transaction or script.
 *
 * @throws KnowledgeConflictError
 * @example
 * ```ts
 * checkKnowledgeRevision('user-42', 0, 2, 'MyStore.save'); // throws KnowledgeConflictError
 * checkKnowledgeRevision('user-42', undefined, 2, 'MyStore.save'); // unconditional: passes
 * ```
 */
export const checkKnowledgeRevision = (
  key: string,
  expected: number | undefined,
  actual: number,
  api: string,
): void => {
  if (expected !== undefined && expected !== actual) {
    throw new KnowledgeConflictError(api, key, expected, actual);
  }
};

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
