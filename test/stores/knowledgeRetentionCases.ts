import fc from 'fast-check';
import { expect, it } from 'vitest';
import { MemoryArgumentError, SessionIdError } from 'conversation-memory';
import {
  createKnowledge,
  KnowledgeConflictError,
  type KnowledgeState,
  type KnowledgeStore,
} from 'conversation-memory/knowledge';
import { sampleKnowledge } from '../arbitraries/knowledge';
import {
  DELETED_NAMESPACES,
  inNamespace,
  outcome,
  type Readable,
  readableBy,
  RETENTION_IDS,
  type RetentionNamespace,
  retentionOpsArb,
} from './retentionSamples';
import { manualClock, rejection } from './suiteHelpers';

/**
 * The options the knowledge suite makes its stores with: `defaultTtl` (seconds) and `now` (the
 * clock in Unix seconds, moved by hand by the TTL tests); none for most tests.
 *
 * @example
 * ```ts
 * const options: KnowledgeStoreMakeOptions = { defaultTtl: 60, now: () => 1_000 };
 * ```
 */
export interface KnowledgeStoreMakeOptions {
  readonly defaultTtl?: number;
  readonly now?: () => number;
}

/** What the retention cases need of the knowledge suite: its factories and hooks. */
export interface KnowledgeRetentionContext {
  /** A fresh store the suite closes after the test. */
  readonly make: (options?: KnowledgeStoreMakeOptions) => Promise<KnowledgeStore>;
  /** A fresh store the caller closes (one per run of a property). */
  readonly makeOwn: (options?: KnowledgeStoreMakeOptions) => Promise<KnowledgeStore>;
  readonly corrupt?:
    ((store: KnowledgeStore, key: string, how: 'json' | 'state') => Promise<void>) | undefined;
  readonly asideCount?: ((store: KnowledgeStore) => Promise<number>) | undefined;
  /** Runs of the erasure property. */
  readonly runs: number;
}

/** A knowledge state that says where it was written (one entry with that content). */
const stateSaying = (content: string): KnowledgeState => {
  const base = sampleKnowledge();
  const entry = base.entries[0] as KnowledgeState['entries'][number];
  return { ...base, entries: [{ ...entry, content }] };
};

/** Everything a knowledge store shows of one namespace, as JSON. */
const knowledgeReads = async (
  store: KnowledgeStore,
  namespace: RetentionNamespace,
): Promise<Readable> => {
  const reads: Readable = new Map();
  for (const id of RETENTION_IDS) {
    reads.set(`load ${id}`, await outcome(store.load(id, { namespace })));
  }
  reads.set('list', JSON.stringify(inNamespace(await store.list(), namespace)));
  if (namespace !== undefined) {
    reads.set('list in namespace', JSON.stringify(await store.list({ namespace })));
  }
  return reads;
};

/**
 * The retention cases of the knowledge suite (issue #30): `defaultTtl` (sliding from the last
 * save; an expired record is absent and a save sees revision 0), `sweep`, `deleteNamespace`
 * (exactly one namespace, a fast-check property over random saves and deletes; the copies kept
 * aside too) and its refusals, and both after `close()`. Registered inside the suite's
 * `describe`.
 *
 * @example
 * ```ts
 * knowledgeRetentionCases({ make, makeOwn: hooks.make, runs: hooks.retentionRuns ?? 20 });
 * ```
 */
export const knowledgeRetentionCases = (context: KnowledgeRetentionContext): void => {
  const { make } = context;

  it('TTL: a record expires defaultTtl seconds after its last save; expired, it is absent and a save sees revision 0', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('u1', stateSaying('first'), { expectedRevision: 0 });
    await store.save('u2', stateSaying('other'), { namespace: 'a' });
    clock.advance(60);
    expect((await store.load('u1'))?.revision).toBe(1); // exactly the TTL: still live
    await store.save('u1', stateSaying('second'), { expectedRevision: 1 });
    clock.advance(59);
    expect((await store.list()).map((entry) => entry.key)).toEqual(['u1']);
    expect(await store.load('u2', { namespace: 'a' })).toBeNull();
    clock.advance(2);
    expect(await store.load('u1')).toBeNull();
    expect(await store.list()).toEqual([]);
    const stale = await rejection(store.save('u1', stateSaying('late'), { expectedRevision: 2 }));
    expect(stale).toBeInstanceOf(KnowledgeConflictError);
    expect(stale).toMatchObject({ key: 'u1', expectedRevision: 2, actualRevision: 0 });
    expect(await store.save('u1', stateSaying('fresh'), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    expect(await store.load('u1')).toEqual({ state: stateSaying('fresh'), revision: 1 });
    expect(await store.delete('u2', { namespace: 'a' })).toBe(false);
  });

  it('refuses a TTL of 0 or less, or not a number, when the store is made', async () => {
    for (const defaultTtl of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await rejection(make({ defaultTtl }));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('defaultTtl must be a positive number');
    }
  });

  it('sweep removes exactly the expired records and counts them; live ones stay as they were', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('old', stateSaying('old'));
    await store.save('old', stateSaying('old in a'), { namespace: 'a' });
    await store.save('c', stateSaying('c'), { namespace: 'a:b' });
    clock.advance(30);
    await store.save('kept', stateSaying('kept'));
    await store.save('c', stateSaying('c again'), { namespace: 'a:b' });
    const before = [await store.load('kept'), await store.load('c', { namespace: 'a:b' })];
    clock.advance(31);
    expect(await store.sweep()).toEqual({ removed: 2 });
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect([await store.load('kept'), await store.load('c', { namespace: 'a:b' })]).toEqual(before);
    expect((await store.list()).map((entry) => entry.key)).toEqual(['a%3Ab:c', 'kept']);
    expect(await store.save('old', createKnowledge(), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    clock.advance(61);
    expect(await store.sweep()).toEqual({ removed: 3 });
    expect(await store.list()).toEqual([]);
  });

  it('sweep without a TTL removes nothing', async () => {
    const clock = manualClock();
    const store = await make({ now: clock.now });
    await store.save('u1', createKnowledge());
    clock.advance(1e9);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect((await store.load('u1'))?.revision).toBe(1);
  });

  it('deleteNamespace removes that namespace’s records (expired ones too) and nothing else; the ids start afresh', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('expired', stateSaying('expired'), { namespace: 'a' });
    clock.advance(61);
    const kept = [
      ['c', 'a:b'],
      ['b:c', undefined],
      ['a:s', undefined],
      ['c', 'a%3Ab'],
      ['c', 'ab'],
    ] as const;
    for (const [id, namespace] of kept) await store.save(id, stateSaying(id), { namespace });
    for (const id of ['s', 'b:c', '%3A']) {
      await store.save(id, stateSaying(id), { namespace: 'a' });
      await store.save(id, stateSaying(`${id} again`), { namespace: 'a' });
    }
    // Read record by record: a listing may collect the expired record it meets.
    const shown = async () =>
      Promise.all(kept.map(([id, namespace]) => store.load(id, { namespace })));
    const before = await shown();
    expect(await store.deleteNamespace('a')).toEqual({ removed: 4 });
    expect(await shown()).toEqual(before);
    expect((await store.list()).map((entry) => entry.key).sort()).toEqual(
      ['a%3Ab:c', 'ab:c', 'a%253Ab:c', 'a%3As', 'b%3Ac'].sort(),
    );
    expect(await store.list({ namespace: 'a' })).toEqual([]);
    for (const id of ['s', 'b:c', '%3A', 'expired']) {
      expect(await store.load(id, { namespace: 'a' })).toBeNull();
    }
    expect(await store.deleteNamespace('a')).toEqual({ removed: 0 });
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(
      await store.save('s', createKnowledge(), { namespace: 'a', expectedRevision: 0 }),
    ).toEqual({ revision: 1 });
  });

  it('deleteNamespace refuses a missing or invalid namespace, removing nothing', async () => {
    const store = await make();
    await store.save('u1', createKnowledge(), { namespace: 'a' });
    await store.save('u1', createKnowledge());
    // Omitted: it would not say which records to delete.
    for (const namespace of [undefined, null]) {
      const error = await rejection(store.deleteNamespace(namespace as never));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('namespace');
    }
    // Not a namespace the keys accept: refused as every method refuses it.
    for (const namespace of [42, {}, '', 'a\u0000', 'n'.repeat(513), '\ud800']) {
      const error = await rejection(store.deleteNamespace(namespace as never));
      expect(error).toBeInstanceOf(SessionIdError);
      expect((error as Error).message).toContain('namespace');
    }
    expect(await store.list()).toHaveLength(2);
  });

  it('property: after deleteNamespace nothing of the namespace is readable, and every other namespace reads back byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        retentionOpsArb(['delete']),
        fc.constantFrom(...DELETED_NAMESPACES),
        async (ops, deleted) => {
          const store = await context.makeOwn();
          try {
            for (const { kind, namespace, id, n } of ops) {
              if (kind === 'delete') await store.delete(id, { namespace });
              else
                await store.save(id, stateSaying(`${namespace ?? '-'} ${id} ${n}`), { namespace });
            }
            const read = (namespace: RetentionNamespace) => knowledgeReads(store, namespace);
            const before = await readableBy(read);
            const count = inNamespace(await store.list(), deleted).length;
            expect(await store.deleteNamespace(deleted)).toEqual({ removed: count });
            const after = await readableBy(read);
            for (const [namespace, reads] of after) {
              if (namespace !== deleted) expect(reads).toEqual(before.get(namespace));
            }
            const gone = after.get(deleted) as Readable;
            for (const id of RETENTION_IDS) expect(gone.get(`load ${id}`)).toBe('null');
            expect(gone.get('list')).toBe('[]');
            expect(gone.get('list in namespace')).toBe('[]');
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: context.runs },
    );
  });

  if (context.corrupt !== undefined) {
    const { corrupt, asideCount } = context;
    it('deleteNamespace removes the namespace’s damaged records and the copies kept aside, and no other', async () => {
      const store = await make();
      for (const namespace of ['a', 'b']) {
        await store.save('kept', sampleKnowledge(), { namespace });
        await store.save('damaged', sampleKnowledge(), { namespace });
      }
      await corrupt(store, 'a:kept', 'json');
      await corrupt(store, 'b:kept', 'state');
      await store.save('kept', createKnowledge(), { namespace: 'a', expectedRevision: 0 });
      await store.save('kept', createKnowledge(), { namespace: 'b', expectedRevision: 0 });
      await corrupt(store, 'a:damaged', 'json');
      const aside = (await asideCount?.(store)) ?? 0;
      await store.deleteNamespace('a');
      if (asideCount !== undefined) expect(await asideCount(store)).toBe(aside - 1);
      expect(await store.load('damaged', { namespace: 'a' })).toBeNull();
      expect(await store.load('kept', { namespace: 'a' })).toBeNull();
      expect((await store.list()).map((entry) => entry.key)).toEqual(['b:damaged', 'b:kept']);
      // Nothing of 'a' is left to keep aside: a save there starts afresh.
      expect(
        await store.save('damaged', createKnowledge(), { namespace: 'a', expectedRevision: 0 }),
      ).toEqual({ revision: 1 });
      if (asideCount !== undefined) expect(await asideCount(store)).toBe(aside - 1);
    });
  }

  it('sweep and deleteNamespace reject after close', async () => {
    const store = await context.makeOwn();
    await store.save('u1', createKnowledge(), { namespace: 'a' });
    await store.close();
    for (const call of [() => store.sweep(), () => store.deleteNamespace('a')]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('the store is closed');
    }
  });
};
