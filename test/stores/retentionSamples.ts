import fc from 'fast-check';

/**
 * What the retention cases of the conformance suites share (`sweep`, `deleteNamespace`, `prune`):
 * the namespaces and ids their properties draw from, and how they compare everything a store
 * shows before and after an erasure. Like the suites, this file imports the library only by its
 * package name.
 */

/**
 * The namespaces the erasure properties write into: ones that are prefixes of each other's keys
 * (`a`, `a:b`, `ab`), one that spells the escape of another (`a%3Ab`), and none (`undefined`).
 * `deleteNamespace('a')` must leave every other one whole.
 *
 * @example
 * ```ts
 * fc.constantFrom(...RETENTION_NAMESPACES);
 * ```
 */
export const RETENTION_NAMESPACES = ['a', 'a:b', 'b', 'a%3Ab', 'ab', undefined] as const;

/** The namespaces `deleteNamespace` is called with (every one but none). */
export const DELETED_NAMESPACES = ['a', 'a:b', 'b', 'a%3Ab', 'ab'] as const;

/**
 * The ids the erasure properties write under: ids that look like a namespace and its separator
 * (`a:b`, `b:s`), or like an escaped one (`a%3Ab`).
 *
 * @example
 * ```ts
 * fc.constantFrom(...RETENTION_IDS);
 * ```
 */
export const RETENTION_IDS = ['s', 'a', 'a:b', 'b:s', 'a%3Ab', 'b'] as const;

/** A namespace of {@link RETENTION_NAMESPACES}. */
export type RetentionNamespace = (typeof RETENTION_NAMESPACES)[number];

/**
 * Every (namespace, id) address the erasure properties can write to.
 *
 * @example
 * ```ts
 * for (const [namespace, id] of RETENTION_ADDRESSES) await store.load(id, { namespace });
 * ```
 */
export const RETENTION_ADDRESSES: readonly (readonly [RetentionNamespace, string])[] =
  RETENTION_NAMESPACES.flatMap((namespace) => RETENTION_IDS.map((id) => [namespace, id] as const));

/** One write of an erasure property: `kind` at an address, `n` a small number (a size, a text). */
export interface RetentionOp {
  readonly kind: 'write' | 'delete' | 'prune';
  readonly namespace: RetentionNamespace;
  readonly id: string;
  readonly n: number;
}

/**
 * Random operations over {@link RETENTION_ADDRESSES}: mostly writes, some deletes, and (for event
 * stores, when `kinds` has it) prunes.
 *
 * @example
 * ```ts
 * fc.asyncProperty(retentionOpsArb(['write', 'delete']), async (ops) => {});
 * ```
 */
export const retentionOpsArb = (
  kinds: readonly RetentionOp['kind'][],
): fc.Arbitrary<RetentionOp[]> =>
  fc.array(
    fc.record({
      kind: fc.constantFrom(...(['write', 'write', ...kinds] as const)),
      namespace: fc.constantFrom(...RETENTION_NAMESPACES),
      id: fc.constantFrom(...RETENTION_IDS),
      n: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 14 },
  );

/**
 * What a store shows of one namespace (or of the records without one): the JSON of every read,
 * keyed by what was read (`load s`, `list`, …), as {@link readableBy} gathers it.
 */
export type Readable = Map<string, string>;

/**
 * Everything a store shows, by namespace: `read(namespace)` gives the namespace's reads (a read's
 * rejection is recorded as its error code), so that the reads of every namespace but the deleted
 * one can be compared byte for byte before and after an erasure.
 *
 * @example
 * ```ts
 * const before = await readableBy(async (namespace) => new Map([['load s', json(await store.load('s', { namespace }))]]));
 * ```
 */
export const readableBy = async (
  read: (namespace: RetentionNamespace) => Promise<Readable>,
): Promise<Map<RetentionNamespace, Readable>> => {
  const all = new Map<RetentionNamespace, Readable>();
  for (const namespace of RETENTION_NAMESPACES) all.set(namespace, await read(namespace));
  return all;
};

/**
 * The JSON of what a read resolved to, or of the code of its rejection: reads of a pruned stream
 * reject, and that too must not change.
 *
 * @example
 * ```ts
 * readable.set('load s', await outcome(store.load('s')));
 * ```
 */
export const outcome = async (promise: Promise<unknown>): Promise<string> => {
  try {
    return JSON.stringify(await promise) ?? 'undefined';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return `rejected ${typeof code === 'string' ? code : String(error)}`;
  }
};

/**
 * The entries of a listing that belong to `namespace` (`undefined`: those without one), from the
 * `namespace` field every listing has.
 *
 * @example
 * ```ts
 * inNamespace(await store.list(), 'a'); // the sessions of namespace 'a'
 * ```
 */
export const inNamespace = <T extends { readonly namespace?: string | undefined }>(
  entries: readonly T[],
  namespace: RetentionNamespace,
): T[] => entries.filter((entry) => entry.namespace === namespace);
