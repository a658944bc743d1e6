import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { readOptionFields } from '../../internal/readOptionFields';
import { namespaceOf } from './sessionKey';

/**
 * What `sweep`, `deleteNamespace` and `prune` return: how many records they removed (sessions,
 * streams or knowledge records for `sweep` and `deleteNamespace`; actions for `prune`).
 *
 * @example
 * ```ts
 * const { removed } = await store.sweep(); // e.g. 12 expired sessions
 * ```
 */
export interface RemovedCount {
  readonly removed: number;
}

/**
 * The two ways every store forgets, shared by `SessionStore`, `EventStore` and `KnowledgeStore`:
 *
 * - `sweep()` removes what has expired (`defaultTtl`) in bounded batches, so a table of millions
 *   of rows is never locked for long; an expired record is already invisible to every read, so a
 *   sweep changes what is stored, never what is seen. Run it from a cron job.
 * - `deleteNamespace(namespace)` removes every record of one namespace (a tenant, a user) and
 *   nothing else: namespaced keys are injective, so no record of another namespace, and none
 *   without a namespace, can match. Backups and replicas are the application's to erase.
 *
 * @example
 * ```ts
 * const stores: RetentionStore[] = [sessions, events, knowledge];
 * for (const store of stores) await store.deleteNamespace('tenant-42');
 * ```
 */
export interface RetentionStore {
  /** Removes the expired records (in bounded batches); resolves to how many. */
  sweep(): Promise<RemovedCount>;
  /** Removes every record of `namespace` and nothing else; resolves to how many. */
  deleteNamespace(namespace: string): Promise<RemovedCount>;
}

/**
 * The most rows one batch of a `sweep` (or of a `deleteNamespace` that works in batches) removes
 * in one transaction or script: large enough to be fast, small enough that no table or key space
 * is held for long.
 *
 * @example
 * ```ts
 * `DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE expires_at < ? LIMIT ${SWEEP_BATCH})`;
 * ```
 */
export const SWEEP_BATCH = 500;

/**
 * Validates the argument of `deleteNamespace`: a namespace as `sessionKeyOf` accepts it. Omitting
 * it is refused (it would not say which records to delete; records without a namespace are
 * deleted one by one with `delete`).
 *
 * @throws MemoryArgumentError naming the value
 * @example
 * ```ts
 * namespaceToDeleteOf('tenant-42', 'InMemorySessionStore.deleteNamespace'); // 'tenant-42'
 * namespaceToDeleteOf(undefined, 'InMemorySessionStore.deleteNamespace'); // throws
 * ```
 */
export const namespaceToDeleteOf = (namespace: unknown, api: string): string => {
  const checked = namespaceOf(namespace, api);
  if (checked === undefined) {
    throw new MemoryArgumentError(
      api,
      `namespace must be a namespace string (the records of one tenant or user), received ${describeValue(namespace)}`,
    );
  }
  return checked;
};

/**
 * Options of `EventStore.prune`: `before` is the first version that stays readable. Actions of
 * versions below it are removed, replaced by a snapshot of the state at `before`.
 *
 * @example
 * ```ts
 * const options: PruneOptions = { before: 1_000, namespace: 'tenant-42' };
 * ```
 */
export interface PruneOptions {
  readonly before: number;
  readonly namespace?: string | undefined;
}

/**
 * Reads `prune`'s options: `{ before, namespace? }` with `before` an integer of at least 1 (the
 * stream's version is checked by the store, which knows it).
 *
 * @throws MemoryArgumentError naming the field and the value
 * @example
 * ```ts
 * pruneOptionsOf({ before: 100 }, 'InMemoryEventStore.prune'); // { before: 100, namespace: undefined }
 * pruneOptionsOf({ befor: 100 }, 'InMemoryEventStore.prune'); // throws: did you mean before?
 * ```
 */
export const pruneOptionsOf = (
  options: unknown,
  api: string,
): { readonly before: number; readonly namespace: string | undefined } => {
  const { before, namespace } = readOptionFields(options, ['before', 'namespace'], api, {
    example: '{ before: 100 }',
  });
  if (typeof before !== 'number' || !Number.isSafeInteger(before) || before < 1) {
    throw new MemoryArgumentError(
      api,
      `options.before must be an integer of at least 1 (the first version to keep), received ${describeValue(before)}`,
    );
  }
  return { before, namespace: namespace as string | undefined };
};

/**
 * The check `prune` makes once it knows the stream's version: `before` may be at most the version
 * (the state at `before` must exist to be kept as a snapshot).
 *
 * @throws MemoryArgumentError naming the stream, its version and `before`
 * @example
 * ```ts
 * checkPruneBefore('s1', 100, 250, 'InMemoryEventStore.prune'); // fine
 * checkPruneBefore('s1', 300, 250, 'InMemoryEventStore.prune'); // throws
 * ```
 */
export const checkPruneBefore = (
  key: string,
  before: number,
  version: number,
  api: string,
): void => {
  if (version === 0) {
    throw new MemoryArgumentError(
      api,
      `stream ${describeValue(key)} not found: there is nothing to prune (nothing was changed)`,
    );
  }
  if (before > version) {
    throw new MemoryArgumentError(
      api,
      `options.before must be at most the stream's version ${version} (the state kept as a snapshot must exist), received ${before}; nothing was changed`,
    );
  }
};

/**
 * The expiry options every store takes (the session stores have had them from the start; the
 * event and knowledge stores take them too): `defaultTtl`, seconds a record lives after its last
 * write (`null`/omitted: forever; an expired record is invisible to every read and removed by the
 * store, never half-removed), and `now`, the clock in Unix seconds (for tests).
 *
 * @example
 * ```ts
 * const options: StoreExpiryOptions = { defaultTtl: 30 * 24 * 3600 };
 * ```
 */
export interface StoreExpiryOptions {
  readonly defaultTtl?: number | null | undefined;
  readonly now?: (() => number) | undefined;
}
