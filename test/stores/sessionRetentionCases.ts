import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  MemoryArgumentError,
  SessionIdError,
  type SessionSearchResult,
  type SessionStore,
} from 'conversation-memory';
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
import { sampleState } from './storeSamples';
import { manualClock, rejection } from './suiteHelpers';

/** What the retention cases need of the session suite: its factory and its hooks. */
export interface SessionRetentionContext {
  /** A fresh store the suite closes after the test. */
  readonly make: (options?: { defaultTtl?: number; now?: () => number }) => Promise<SessionStore>;
  /** A fresh store the caller closes (one per run of a property). */
  readonly makeOwn: (options: { defaultTtl?: number; now?: () => number }) => Promise<SessionStore>;
  readonly corrupt?: ((store: SessionStore, key: string) => Promise<void>) | undefined;
  readonly asideCount?: ((store: SessionStore) => Promise<number>) | undefined;
  readonly searchScoring?: 'hits' | 'fts5' | undefined;
  /** Runs of the erasure property. */
  readonly runs: number;
}

/** A search result as compared across an erasure (FTS5's bm25 part depends on the whole table). */
const comparable = (results: readonly SessionSearchResult[], fts5: boolean): unknown[] =>
  results
    .map((r) => ({
      sessionId: r.sessionId,
      id: r.id,
      namespace: r.namespace,
      matchedMessages: r.matchedMessages,
      score: fts5 ? Math.floor(r.score) : r.score,
    }))
    .sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));

/** Everything a session store shows of one namespace, as JSON. */
const sessionReads = async (
  store: SessionStore,
  namespace: RetentionNamespace,
  fts5: boolean,
): Promise<Readable> => {
  const reads: Readable = new Map();
  for (const id of RETENTION_IDS) {
    reads.set(`load ${id}`, await outcome(store.load(id, { namespace })));
    reads.set(`exists ${id}`, await outcome(store.exists(id, { namespace })));
  }
  reads.set('list', JSON.stringify(inNamespace(await store.list(), namespace)));
  for (const term of ['alpha', 'beta']) {
    const everywhere = await store.search(term, { limit: 1000 });
    reads.set(
      `search ${term}`,
      JSON.stringify(comparable(inNamespace(everywhere, namespace), fts5)),
    );
    if (namespace !== undefined) {
      const own = await store.search(term, { namespace, limit: 1000 });
      reads.set(`search ${term} in namespace`, JSON.stringify(comparable(own, fts5)));
    }
  }
  return reads;
};

/**
 * The retention cases of the session suite (issue #30): `sweep` removes exactly the expired
 * sessions and counts them, `deleteNamespace` removes exactly one namespace (a fast-check
 * property over random saves and deletes: nothing of it is readable after, every other namespace
 * reads back byte for byte), refuses a missing or invalid namespace, removes the copies kept
 * aside, and both reject after `close()`. Registered inside the suite's `describe`.
 *
 * @example
 * ```ts
 * sessionRetentionCases({ make, makeOwn: hooks.make, runs: hooks.retentionRuns ?? 20 });
 * ```
 */
export const sessionRetentionCases = (context: SessionRetentionContext): void => {
  const { make } = context;
  const fts5 = context.searchScoring === 'fts5';

  it('sweep removes exactly the expired sessions (any namespace) and counts them; live ones stay as they were', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('old', sampleState(['alpha old']));
    await store.save('old', sampleState(['alpha old in a']), { namespace: 'a' });
    await store.save('c', sampleState(['alpha old in a:b']), { namespace: 'a:b' });
    clock.advance(30);
    await store.save('fresh', sampleState(['alpha fresh']));
    await store.save('fresh', sampleState(['alpha fresh in a']), { namespace: 'a' });
    // Saved again: its TTL starts again.
    await store.save('c', sampleState(['alpha again']), { namespace: 'a:b' });
    const live = [
      ['fresh', undefined],
      ['fresh', 'a'],
      ['c', 'a:b'],
    ] as const;
    const before = await Promise.all(live.map(([id, namespace]) => store.load(id, { namespace })));
    clock.advance(31);
    expect(await store.sweep()).toEqual({ removed: 2 });
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(await Promise.all(live.map(([id, namespace]) => store.load(id, { namespace })))).toEqual(
      before,
    );
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual([
      'a%3Ab:c',
      'a:fresh',
      'fresh',
    ]);
    // Gone, not hidden: a save expecting nothing starts again at revision 1.
    expect(await store.save('old', sampleState(), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    clock.advance(61);
    expect(await store.sweep()).toEqual({ removed: 4 });
    expect(await store.list()).toEqual([]);
  });

  it('an expired session is invisible before the sweep, which then leaves nothing of it', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('s1', sampleState(['lisbon']), { namespace: 'a' });
    await store.save('s2', sampleState(['lisbon']));
    clock.advance(61);
    await store.save('s3', sampleState(['lisbon']));
    expect(await store.load('s1', { namespace: 'a' })).toBeNull();
    expect(await store.exists('s2')).toBe(false);
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['s3']);
    expect((await store.search('lisbon')).map((hit) => hit.sessionId)).toEqual(['s3']);
    expect(await store.search('lisbon', { namespace: 'a' })).toEqual([]);
    // A read may already have collected what it met: the sweep removes what is left.
    const { removed } = await store.sweep();
    expect(removed).toBeGreaterThanOrEqual(0);
    expect(removed).toBeLessThanOrEqual(2);
    expect(await store.deleteNamespace('a')).toEqual({ removed: 0 });
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['s3']);
  });

  it('sweep without a TTL removes nothing', async () => {
    const clock = manualClock();
    const store = await make({ now: clock.now });
    await store.save('s1', sampleState());
    await store.save('s1', sampleState(), { namespace: 'a' });
    clock.advance(1e9);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(await store.list()).toHaveLength(2);
  });

  it('deleteNamespace removes that namespace only: not a:b, not a%3Ab, not ids that look like a:…, not the sessions without one', async () => {
    const store = await make({});
    const kept = [
      ['c', 'a:b'],
      ['b:c', undefined],
      ['a:s', undefined],
      ['c', 'a%3Ab'],
      ['c', 'ab'],
      ['s', 'b'],
    ] as const;
    for (const [id, namespace] of kept) await store.save(id, sampleState([id]), { namespace });
    for (const id of ['s', 'b:c', 'a:b', '%3A'])
      await store.save(id, sampleState(), { namespace: 'a' });
    const before = await store.list();
    expect(await store.deleteNamespace('a')).toEqual({ removed: 4 });
    expect(await store.list()).toEqual(before.filter((entry) => entry.namespace !== 'a'));
    for (const id of ['s', 'b:c', 'a:b', '%3A']) {
      expect(await store.load(id, { namespace: 'a' })).toBeNull();
    }
    expect(await store.search('s', { namespace: 'a' })).toEqual([]);
    expect(await store.deleteNamespace('a')).toEqual({ removed: 0 });
    expect(await store.deleteNamespace('nobody')).toEqual({ removed: 0 });
    // The namespace can be used again, from revision 1.
    expect(await store.save('s', sampleState(), { namespace: 'a', expectedRevision: 0 })).toEqual({
      revision: 1,
    });
  });

  it('deleteNamespace counts and removes expired sessions not yet swept', async () => {
    const clock = manualClock();
    const store = await make({ defaultTtl: 60, now: clock.now });
    await store.save('old', sampleState(), { namespace: 'a' });
    await store.save('old', sampleState(), { namespace: 'b' });
    clock.advance(61);
    await store.save('new', sampleState(), { namespace: 'a' });
    expect(await store.deleteNamespace('a')).toEqual({ removed: 2 });
    expect(await store.sweep()).toEqual({ removed: 1 });
  });

  it('deleteNamespace refuses a missing or invalid namespace, removing nothing', async () => {
    const store = await make({});
    await store.save('s', sampleState(), { namespace: 'a' });
    await store.save('s', sampleState());
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

  it(`property: after deleteNamespace nothing of the namespace is readable, and every other namespace reads back byte for byte`, async () => {
    await fc.assert(
      fc.asyncProperty(
        retentionOpsArb(['delete']),
        fc.constantFrom(...DELETED_NAMESPACES),
        async (ops, deleted) => {
          const store = await context.makeOwn({});
          try {
            for (const { kind, namespace, id, n } of ops) {
              if (kind === 'delete') await store.delete(id, { namespace });
              else {
                const texts = [`alpha ${id}`, `beta ${namespace ?? '-'} ${n}`].slice(0, n);
                await store.save(id, sampleState(texts), { namespace });
              }
            }
            const read = (namespace: RetentionNamespace) => sessionReads(store, namespace, fts5);
            const before = await readableBy(read);
            const count = inNamespace(await store.list(), deleted).length;
            expect(await store.deleteNamespace(deleted)).toEqual({ removed: count });
            const after = await readableBy(read);
            for (const [namespace, reads] of after) {
              if (namespace !== deleted) expect(reads).toEqual(before.get(namespace));
            }
            const gone = after.get(deleted) as Readable;
            for (const id of RETENTION_IDS) {
              expect(gone.get(`load ${id}`)).toBe('null');
              expect(gone.get(`exists ${id}`)).toBe('false');
            }
            for (const [what, json] of gone) {
              if (what.startsWith('list') || what.startsWith('search')) expect(json).toBe('[]');
            }
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
    it('deleteNamespace removes the namespace’s damaged sessions and the copies kept aside, and no other', async () => {
      const store = await make({});
      for (const namespace of ['a', 'b']) {
        await store.save('kept', sampleState(), { namespace });
        await store.save('damaged', sampleState(), { namespace });
      }
      await corrupt(store, 'a:kept');
      await corrupt(store, 'b:kept');
      await store.save('kept', sampleState(['fresh']), { namespace: 'a' });
      await store.save('kept', sampleState(['fresh']), { namespace: 'b' });
      await corrupt(store, 'a:damaged');
      const aside = (await asideCount?.(store)) ?? 0;
      await store.deleteNamespace('a');
      if (asideCount !== undefined) expect(await asideCount(store)).toBe(aside - 1);
      expect(await store.load('damaged', { namespace: 'a' })).toBeNull();
      expect(await store.exists('damaged', { namespace: 'a' })).toBe(false);
      expect(await store.load('kept', { namespace: 'a' })).toBeNull();
      expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['b:damaged', 'b:kept']);
    });
  }

  it('sweep and deleteNamespace reject after close', async () => {
    const store = await context.makeOwn({});
    await store.save('s', sampleState(), { namespace: 'a' });
    await store.close();
    for (const call of [() => store.sweep(), () => store.deleteNamespace('a')]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('the store is closed');
    }
  });
};
