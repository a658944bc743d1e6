import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  MemoryArgumentError,
  SessionIdError,
} from 'conversation-memory';
import {
  createKnowledge,
  KnowledgeConflictError,
  KnowledgeCorruptError,
  type KnowledgeState,
  type KnowledgeStore,
} from 'conversation-memory/knowledge';
import { knowledgeStateArb, sampleKnowledge } from '../arbitraries/knowledge';
import { knowledgeRetentionCases, type KnowledgeStoreMakeOptions } from './knowledgeRetentionCases';
import { rejection } from './suiteHelpers';

/**
 * What {@link knowledgeStoreConformance} needs of the store under test: a factory, a second
 * writer on the same data when the backend can have one, and for a store that persists records,
 * a way to damage one in the backend's own way.
 *
 * @example
 * ```ts
 * const hooks: KnowledgeStoreConformanceHooks = {
 *   make: async () => new InMemoryKnowledgeStore(),
 * };
 * ```
 */
export interface KnowledgeStoreConformanceHooks {
  /**
   * A fresh, empty store, with these options when given (`defaultTtl` in seconds and `now`, the
   * clock in Unix seconds, moved by hand by the TTL tests). Called once per test (and per run of
   * a property); the suite closes it.
   */
  readonly make: (options?: KnowledgeStoreMakeOptions) => Promise<KnowledgeStore>;
  /** A second store on the same backend as `store` (another writer), when there can be one. */
  readonly sibling?: (store: KnowledgeStore) => Promise<KnowledgeStore>;
  /**
   * Damages the stored record of `key` (`ns:id` or `id`), keeping its revision: `'json'` so that
   * it is not JSON, `'state'` so that it is JSON but not a valid knowledge state.
   */
  readonly corrupt?: (store: KnowledgeStore, key: string, how: 'json' | 'state') => Promise<void>;
  /** How many damaged records the store has kept aside so far. */
  readonly asideCount?: (store: KnowledgeStore) => Promise<number>;
  /**
   * How many runs the erasure property (`deleteNamespace` after random saves and deletes) makes
   * (default 20): fewer for a backend where each run is slow.
   */
  readonly retentionRuns?: number;
}

/** A state that differs from `state` (one more entry). */
const withEntry = (state: KnowledgeState, content: string): KnowledgeState => {
  const base = sampleKnowledge().entries[0] as KnowledgeState['entries'][number];
  return {
    ...state,
    entries: [...state.entries, { ...base, id: `k${state.nextId}`, content }],
    nextId: state.nextId + 1,
  };
};

/**
 * The one conformance suite every knowledge store passes (issue #18 §4), as Vitest tests under a
 * `describe` named after the store: round trips (a fast-check property over valid states),
 * frozen loads, revisions and conflicts between writers, namespaces, delete and list, id, option
 * and state validation, a closed store, retention (`defaultTtl`, `sweep`, `deleteNamespace`: see
 * `knowledgeRetentionCases`), and, with `hooks.corrupt`, damaged records. Call it at
 * the top level of a test file; it needs `vitest` and `fast-check` installed (optional peer
 * dependencies of the package).
 *
 * @example
 * ```ts
 * import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
 * import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
 *
 * knowledgeStoreConformance('InMemoryKnowledgeStore', {
 *   make: async (options) => new InMemoryKnowledgeStore(options),
 * });
 * ```
 */
export const knowledgeStoreConformance = (
  name: string,
  hooks: KnowledgeStoreConformanceHooks,
): void => {
  describe(`${name}: KnowledgeStore conformance`, () => {
    const open: KnowledgeStore[] = [];
    const make = async (options?: KnowledgeStoreMakeOptions): Promise<KnowledgeStore> => {
      const store = await hooks.make(options);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    it('saves and loads a state exactly, revisions counting from 1', async () => {
      const store = await make();
      expect(await store.load('u1')).toBeNull();
      const state = sampleKnowledge();
      expect(await store.save('u1', state, { expectedRevision: 0 })).toEqual({ revision: 1 });
      expect(await store.load('u1')).toEqual({ state, revision: 1 });
      const next = withEntry(state, 'Likes tea');
      expect(await store.save('u1', next, { expectedRevision: 1 })).toEqual({ revision: 2 });
      expect(await store.load('u1')).toEqual({ state: next, revision: 2 });
      expect(await store.save('u1', createKnowledge())).toEqual({ revision: 3 });
      expect((await store.load('u1'))?.state).toEqual(createKnowledge());
    });

    it('round-trips arbitrary valid states', async () => {
      const store = await make();
      let i = 0;
      await fc.assert(
        fc.asyncProperty(knowledgeStateArb, async (state) => {
          const id = `p${i++}`;
          await store.save(id, state, { expectedRevision: 0 });
          expect(await store.load(id)).toEqual({ state, revision: 1 });
        }),
        { numRuns: 25 },
      );
    });

    it('what it loads is deeply frozen, and a change to the saved object changes nothing stored', async () => {
      const store = await make();
      const state = JSON.parse(JSON.stringify(sampleKnowledge())) as KnowledgeState;
      await store.save('u1', state);
      (state.entries as KnowledgeState['entries'][number][]).pop();
      const loaded = await store.load('u1');
      expect(loaded?.state.entries).toHaveLength(1);
      expect(Object.isFrozen(loaded?.state)).toBe(true);
      expect(Object.isFrozen(loaded?.state.entries[0]?.metadata)).toBe(true);
    });

    it('two writers: the second save with a stale revision rejects, and the first is not lost', async () => {
      const store = await make();
      const other = hooks.sibling === undefined ? store : await hooks.sibling(store);
      if (other !== store) open.push(other);
      await store.save('u1', sampleKnowledge(), { expectedRevision: 0 });
      const a = await store.load('u1');
      const b = await other.load('u1');
      const first = withEntry(a?.state ?? createKnowledge(), 'from A');
      expect(await store.save('u1', first, { expectedRevision: a?.revision ?? 0 })).toEqual({
        revision: 2,
      });
      const stale = withEntry(b?.state ?? createKnowledge(), 'from B');
      const error = await rejection(
        other.save('u1', stale, { expectedRevision: b?.revision ?? 0 }),
      );
      expect(error).toBeInstanceOf(KnowledgeConflictError);
      expect(isConversationMemoryError(error) && error.code).toBe('CM_KNOWLEDGE_CONFLICT');
      expect(error).toMatchObject({ key: 'u1', expectedRevision: 1, actualRevision: 2 });
      expect(await other.load('u1')).toEqual({ state: first, revision: 2 });
      // expectedRevision 0 means "create": refused over an existing record.
      await expect(store.save('u1', stale, { expectedRevision: 0 })).rejects.toThrow(
        /is at revision 2, the save expected 0 \(absent\)/,
      );
    });

    it('concurrent saves with the same expected revision: exactly one wins', async () => {
      const store = await make();
      const results = await Promise.allSettled(
        ['a', 'b', 'c', 'd'].map((content) =>
          store.save('u1', withEntry(createKnowledge(), content), { expectedRevision: 0 }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(KnowledgeConflictError);
      }
      expect((await store.load('u1'))?.revision).toBe(1);
    });

    it('namespaces: separate records, listed with the id and namespace that load them', async () => {
      const store = await make();
      const one = withEntry(createKnowledge(), 'one');
      const two = withEntry(createKnowledge(), 'two');
      await store.save('u1', one);
      await store.save('u1', two, { namespace: 'acme' });
      await store.save('u2', one, { namespace: 'acme' });
      await store.save('c', one, { namespace: 'a:b' });
      await store.save('b:c', two, { namespace: 'a' });
      expect((await store.load('u1'))?.state).toEqual(one);
      expect((await store.load('u1', { namespace: 'acme' }))?.state).toEqual(two);
      expect((await store.load('c', { namespace: 'a:b' }))?.state).toEqual(one);
      expect((await store.load('b:c', { namespace: 'a' }))?.state).toEqual(two);
      expect(await store.list({ namespace: 'acme' })).toEqual([
        { key: 'acme:u1', id: 'u1', namespace: 'acme', revision: 1 },
        { key: 'acme:u2', id: 'u2', namespace: 'acme', revision: 1 },
      ]);
      const all = await store.list();
      expect(all.map((e) => e.key)).toEqual(['a%3Ab:c', 'a:b:c', 'acme:u1', 'acme:u2', 'u1']);
      for (const entry of all) {
        expect(await store.load(entry.id, { namespace: entry.namespace })).not.toBeNull();
      }
      expect(await store.list({ namespace: 'nobody' })).toEqual([]);
    });

    it('delete: true when there was a record, then it is gone from load and list', async () => {
      const store = await make();
      await store.save('u1', sampleKnowledge());
      await store.save('u1', sampleKnowledge(), { namespace: 'acme' });
      expect(await store.delete('u1')).toBe(true);
      expect(await store.delete('u1')).toBe(false);
      expect(await store.load('u1')).toBeNull();
      expect(await store.list()).toEqual([
        { key: 'acme:u1', id: 'u1', namespace: 'acme', revision: 1 },
      ]);
      // A deleted record starts again at revision 1.
      expect(await store.save('u1', sampleKnowledge(), { expectedRevision: 0 })).toEqual({
        revision: 1,
      });
    });

    it('a record another writer deleted: a save expecting its old revision rejects and writes nothing', async () => {
      const store = await make();
      const other = hooks.sibling === undefined ? store : await hooks.sibling(store);
      if (other !== store) open.push(other);
      await store.save('u1', sampleKnowledge(), { namespace: 'acme', expectedRevision: 0 });
      const loaded = await store.load('u1', { namespace: 'acme' });
      expect(await other.delete('u1', { namespace: 'acme' })).toBe(true);
      const error = await rejection(
        store.save('u1', withEntry(loaded?.state ?? createKnowledge(), 'cached'), {
          namespace: 'acme',
          expectedRevision: loaded?.revision ?? 0,
        }),
      );
      expect(error).toBeInstanceOf(KnowledgeConflictError);
      expect(error).toMatchObject({ key: 'acme:u1', expectedRevision: 1, actualRevision: 0 });
      expect(await store.load('u1', { namespace: 'acme' })).toBeNull();
      expect(await other.list()).toEqual([]);
    });

    it('validates ids, namespaces, options and states as the session stores do, writing nothing', async () => {
      const store = await make();
      for (const bad of ['', 'a\u0000b', 'x'.repeat(513), '\uD800']) {
        await expect(store.load(bad)).rejects.toBeInstanceOf(SessionIdError);
        await expect(store.save(bad, createKnowledge())).rejects.toBeInstanceOf(SessionIdError);
      }
      await expect(store.load('u1', { namespace: '' })).rejects.toBeInstanceOf(SessionIdError);
      await expect(store.list({ namespace: 5 as never })).rejects.toBeInstanceOf(SessionIdError);
      await expect(store.save('u1', createKnowledge(), { expectedRevision: -1 })).rejects.toThrow(
        'options.expectedRevision must be an integer ≥ 0',
      );
      await expect(
        store.save('u1', createKnowledge(), { expectedrevision: 0 } as never),
      ).rejects.toThrow(
        'options.expectedrevision is not an option (did you mean expectedRevision?)',
      );
      await expect(store.list({ namespce: 'a' } as never)).rejects.toThrow(
        'options.namespce is not an option (did you mean namespace?)',
      );
      const bad = { ...sampleKnowledge(), nextId: 2 };
      const error = await rejection(store.save('u1', bad));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain(
        'state.nextId must be greater than every id number',
      );
      await expect(store.save('u1', null as never)).rejects.toBeInstanceOf(MemoryArgumentError);
      expect(await store.list()).toEqual([]);
    });

    knowledgeRetentionCases({
      make,
      makeOwn: hooks.make,
      corrupt: hooks.corrupt,
      asideCount: hooks.asideCount,
      runs: hooks.retentionRuns ?? 20,
    });

    if (hooks.corrupt !== undefined) {
      const corrupt = hooks.corrupt;
      it.each(['json', 'state'] as const)(
        'a corrupt record (%s): load rejects naming the key, list skips it, a save keeps it aside',
        async (how) => {
          const store = await make();
          await store.save('u1', sampleKnowledge(), { namespace: 'acme' });
          await store.save('u2', sampleKnowledge(), { namespace: 'acme' });
          await corrupt(store, 'acme:u1', how);
          const error = await rejection(store.load('u1', { namespace: 'acme' }));
          expect(error).toBeInstanceOf(KnowledgeCorruptError);
          expect(error).toMatchObject({ code: 'CM_KNOWLEDGE_CORRUPT', key: 'acme:u1' });
          expect((error as KnowledgeCorruptError).problems[0]).toMatch(/^state/);
          expect((error as Error).message).toContain('"acme:u1"');
          expect((await store.list()).map((e) => e.key)).toEqual(['acme:u2']);
          // stamp() does not read the state: it stamps the damaged record all the same.
          if (store.stamp !== undefined) {
            expect((await store.stamp('u1', { namespace: 'acme' }))?.revision).toBe(1);
          }
          // A damaged record counts as absent for expectedRevision, and is kept aside.
          await expect(
            store.save('u1', sampleKnowledge(), { namespace: 'acme', expectedRevision: 1 }),
          ).rejects.toBeInstanceOf(KnowledgeConflictError);
          expect(
            await store.save('u1', sampleKnowledge(), { namespace: 'acme', expectedRevision: 0 }),
          ).toEqual({ revision: 1 });
          expect((await store.load('u1', { namespace: 'acme' }))?.state).toEqual(sampleKnowledge());
          if (hooks.asideCount !== undefined) expect(await hooks.asideCount(store)).toBe(1);
          // A delete of a damaged record keeps it aside too.
          await corrupt(store, 'acme:u2', how);
          expect(await store.delete('u2', { namespace: 'acme' })).toBe(true);
          expect(await store.load('u2', { namespace: 'acme' })).toBeNull();
          if (hooks.asideCount !== undefined) expect(await hooks.asideCount(store)).toBe(2);
        },
      );
    }

    it('stamp(): null when absent, then the revision load gives and the time of the save; a delete, an expiry or any save moves it; its options are checked', async () => {
      let now = 1_000_000;
      const store = await make({ defaultTtl: 60, now: () => now });
      // Optional on the interface (a store written before it has none): checked when present.
      if (store.stamp === undefined) return;
      expect(await store.stamp('u1')).toBeNull();
      await store.save('u1', sampleKnowledge());
      now += 1;
      await store.save('u1', withEntry(sampleKnowledge(), 'Likes tea'), { expectedRevision: 1 });
      await store.save('u1', sampleKnowledge(), { namespace: 'acme' });
      const stamp = await store.stamp('u1');
      expect(stamp).toEqual({ revision: 2, savedAt: 1_000_001 });
      expect(stamp?.revision).toBe((await store.load('u1'))?.revision);
      expect(await store.stamp('u1')).toEqual(stamp); // nothing saved: the same stamp
      expect(await store.stamp('u1', { namespace: 'acme' })).toEqual({
        revision: 1,
        savedAt: 1_000_001,
      });
      expect(await store.stamp('u2', { namespace: 'acme' })).toBeNull();
      // Deleted and made again at the same revision, later: a different stamp.
      expect(await store.delete('u1', { namespace: 'acme' })).toBe(true);
      expect(await store.stamp('u1', { namespace: 'acme' })).toBeNull();
      now += 1;
      await store.save('u1', sampleKnowledge(), { namespace: 'acme' });
      expect(await store.stamp('u1', { namespace: 'acme' })).toEqual({
        revision: 1,
        savedAt: 1_000_002,
      });
      // Past the TTL the record is absent for stamp() as for load().
      now += 61;
      expect(await store.load('u1')).toBeNull();
      expect(await store.stamp('u1')).toBeNull();
      const misspelled = await rejection(store.stamp('u1', { namespce: 'acme' } as never));
      expect(misspelled).toBeInstanceOf(MemoryArgumentError);
      expect((misspelled as Error).message).toContain('namespce');
      expect(await rejection(store.stamp('a\u0000b'))).toBeInstanceOf(SessionIdError);
    });

    it('a closed store rejects every method', async () => {
      const store = await make();
      await store.save('u1', sampleKnowledge());
      await store.close();
      for (const call of [
        () => store.load('u1'),
        () => store.save('u1', sampleKnowledge()),
        () => store.delete('u1'),
        () => store.list(),
        ...(store.stamp === undefined ? [] : [() => store.stamp?.('u1') as Promise<unknown>]),
      ]) {
        const error = await rejection(call());
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toContain('the store is closed');
      }
    });
  });
};
