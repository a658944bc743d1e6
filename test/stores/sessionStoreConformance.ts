import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  isConversationMemoryError,
  MemoryArgumentError,
  type Message,
  SessionConflictError,
  SessionCorruptError,
  SessionIdError,
  type SessionStore,
} from 'conversation-memory';
import { distinctSessionPairsArb } from './sessionPairs';
import { sampleState } from './storeSamples';
import { sessionRetentionCases } from './sessionRetentionCases';
import { manualClock, rejection } from './suiteHelpers';

/**
 * What {@link sessionStoreConformance} needs of the store under test: a factory, and for a store
 * that persists records, a way to damage one in the backend's own way.
 *
 * @example
 * ```ts
 * const hooks: SessionStoreConformanceHooks = {
 *   make: async (options) => new InMemorySessionStore(options),
 * };
 * ```
 */
export interface SessionStoreConformanceHooks {
  /**
   * A fresh, empty store with these options (`defaultTtl` in seconds; `now`, the clock in Unix
   * seconds, is moved by hand by the TTL tests). Called once per test, and once per run of a
   * property; the suite closes every store it makes.
   */
  readonly make: (options: { defaultTtl?: number; now?: () => number }) => Promise<SessionStore>;
  /**
   * Damages the stored record of `key` (a storage key: `ns:id` or `id`) so that it no longer
   * decodes. When given, the suite checks that `load` rejects with `SessionCorruptError`, `list`
   * and `search` skip the record, `exists` reports it and a save replaces it.
   */
  readonly corrupt?: (store: SessionStore, key: string) => Promise<void>;
  /** How many damaged records the store has kept aside (for inspection) so far. */
  readonly asideCount?: (store: SessionStore) => Promise<number>;
  /**
   * How the store scores a search: `'hits'` (the reference's scan: the number of occurrences of
   * the terms, the default) or `'fts5'` (the reference's SQLite FTS5 formula: each matching
   * message adds `1 + r/(1+r)` with `r` from bm25, so the whole part is the number of matching
   * messages and ties in it are ordered by bm25).
   */
  readonly searchScoring?: 'hits' | 'fts5';
  /**
   * How many runs the erasure property (`deleteNamespace` after random saves and deletes) makes
   * (default 20): fewer for a backend where each run is slow.
   */
  readonly retentionRuns?: number;
}

const message = (role: Message['role'], content: string): Message => ({ role, content });

/**
 * The one conformance suite every session store passes (issue #8), as Vitest tests under a
 * `describe` named after the store: revisions and conflicts (concurrent saves too), namespaces
 * that never share storage (a fast-check property), the reference's id rules and odd ids,
 * escaped ids in errors, delete, exists, branch, TTL, search with the reference's scoring and
 * snippets, retention (`sweep` and `deleteNamespace`, see `sessionRetentionCases`), and, with
 * `hooks.corrupt`, damaged records. Call it at the top level of a test file;
 * it needs `vitest` and `fast-check` installed (optional peer dependencies of the package).
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'conversation-memory';
 * import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
 *
 * sessionStoreConformance('InMemorySessionStore', {
 *   make: async (options) => new InMemorySessionStore(options),
 * });
 * ```
 */
export const sessionStoreConformance = (
  name: string,
  hooks: SessionStoreConformanceHooks,
): void => {
  describe(`${name}: SessionStore conformance`, () => {
    const open: SessionStore[] = [];
    const make = async (options: { defaultTtl?: number; now?: () => number } = {}) => {
      const store = await hooks.make(options);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    it('saves and loads a state exactly, with revisions from 1 and Unix-second timestamps', async () => {
      const clock = manualClock();
      const store = await make({ now: clock.now });
      const state = sampleState();
      expect(await store.save('s1', state)).toEqual({ revision: 1 });
      const loaded = await store.load('s1');
      expect(loaded?.state).toEqual(state);
      expect(loaded?.revision).toBe(1);
      expect(loaded?.createdAt).toBe(clock.now());
      expect(loaded?.updatedAt).toBe(clock.now());
      const created = clock.now();
      clock.advance(10.5);
      const next = addMessages(state, [message('user', 'more')]).state;
      expect(await store.save('s1', next)).toEqual({ revision: 2 });
      const again = await store.load('s1');
      expect(again?.state).toEqual(next);
      expect(again?.revision).toBe(2);
      expect(again?.createdAt).toBe(created);
      expect(again?.updatedAt).toBe(created + 10.5);
      expect(await store.load('missing')).toBeNull();
    });

    it('a stale expectedRevision fails with SessionConflictError and writes nothing', async () => {
      const store = await make({});
      const first = sampleState(['one']);
      expect(await store.save('s1', first, { expectedRevision: 0 })).toEqual({ revision: 1 });
      const error = await rejection(
        store.save('s1', sampleState(['two']), { expectedRevision: 0 }),
      );
      expect(error).toBeInstanceOf(SessionConflictError);
      expect(error).toMatchObject({
        code: 'CM_SESSION_CONFLICT',
        sessionId: 's1',
        expectedRevision: 0,
        actualRevision: 1,
      });
      const stale = await rejection(
        store.save('s1', sampleState(['three']), { expectedRevision: 2 }),
      );
      expect(stale).toMatchObject({ expectedRevision: 2, actualRevision: 1 });
      expect((await store.load('s1'))?.state).toEqual(first);
      expect(await store.save('s1', sampleState(['four']), { expectedRevision: 1 })).toEqual({
        revision: 2,
      });
      // Conditional on a missing session: only 0 passes.
      expect(await rejection(store.save('s2', first, { expectedRevision: 1 }))).toMatchObject({
        actualRevision: 0,
      });
      expect(await store.exists('s2')).toBe(false);
      // An unconditional save always writes (the reference's behaviour).
      expect(await store.save('s1', first)).toEqual({ revision: 3 });
    });

    it('concurrent saves with the same expected revision: exactly one wins', async () => {
      const store = await make({});
      await store.save('race', sampleState(['base']));
      const attempts = Array.from({ length: 6 }, (_, i) =>
        store.save('race', sampleState([`writer ${i}`]), { expectedRevision: 1 }),
      );
      const settled = await Promise.allSettled(attempts);
      const won = settled.filter((result) => result.status === 'fulfilled');
      const lost = settled.filter((result) => result.status === 'rejected');
      expect(won).toHaveLength(1);
      for (const result of lost) {
        expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SessionConflictError);
      }
      expect((await store.load('race'))?.revision).toBe(2);
    });

    it('rejects bad expectedRevision values and states, writing nothing', async () => {
      const store = await make({});
      for (const expectedRevision of [-1, 1.5, '1', Number.NaN]) {
        const error = await rejection(
          store.save('s1', sampleState(), { expectedRevision } as never),
        );
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toContain('expectedRevision');
      }
      for (const state of [null, {}, { messages: [] }]) {
        expect(await rejection(store.save('s1', state as never))).toBeInstanceOf(
          MemoryArgumentError,
        );
      }
      expect(await store.exists('s1')).toBe(false);
      expect(await store.list()).toEqual([]);
    });

    it('namespaces: separate sessions, listed as ns:id with the id and namespace that load them', async () => {
      const clock = manualClock();
      const store = await make({ now: clock.now });
      await store.save('s1', sampleState(['plain']));
      await store.save('s1', sampleState(['in a', 'namespace', 'three']), { namespace: 'u1' });
      expect((await store.load('s1'))?.state.messages).toHaveLength(1);
      expect((await store.load('s1', { namespace: 'u1' }))?.state.messages).toHaveLength(3);
      // The storage key is not an address: without a namespace, 'u1:s1' is another session.
      expect(await store.load('u1:s1')).toBeNull();
      const listed = await store.list();
      expect(listed).toEqual([
        {
          sessionId: 's1',
          id: 's1',
          messageCount: 1,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        },
        {
          sessionId: 'u1:s1',
          id: 's1',
          namespace: 'u1',
          messageCount: 3,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        },
      ]);
      for (const entry of listed) {
        const loaded = await store.load(entry.id, { namespace: entry.namespace });
        expect(loaded?.state.messages).toHaveLength(entry.messageCount);
      }
      expect(await store.delete('s1', { namespace: 'u1' })).toBe(true);
      expect(await store.exists('s1')).toBe(true);
      expect(await store.exists('s1', { namespace: 'u1' })).toBe(false);
    });

    it('namespaces isolate: (a:b, c), (a, b:c), (undefined, a:b:c) and (a%3Ab, c) are four sessions', async () => {
      const store = await make({});
      const pairs = [
        ['c', 'a:b'],
        ['b:c', 'a'],
        ['a:b:c', undefined],
        ['c', 'a%3Ab'],
        ['a%3Ab:c', undefined],
      ] as const;
      for (const [i, [id, namespace]] of pairs.entries()) {
        await store.save(id, sampleState([`secret ${i}`]), { namespace, expectedRevision: 0 });
      }
      for (const [i, [id, namespace]] of pairs.entries()) {
        expect((await store.load(id, { namespace }))?.state.messages[0]?.content).toBe(
          `secret ${i}`,
        );
      }
      const listed = await store.list();
      expect(new Set(listed.map((entry) => entry.sessionId)).size).toBe(pairs.length);
      expect(listed.map((entry) => [entry.id, entry.namespace]).sort()).toEqual(
        pairs.map(([id, namespace]) => [id, namespace]).sort(),
      );
      // A search in namespace 'a' finds only (a, b:c), never (a:b, c).
      const found = await store.search('secret', { namespace: 'a', limit: 10 });
      expect(found.map((hit) => [hit.sessionId, hit.id, hit.namespace])).toEqual([
        ['b:c', 'b:c', 'a'],
      ]);
      const everywhere = await store.search('secret', { limit: 10 });
      expect(everywhere).toHaveLength(pairs.length);
      for (const hit of everywhere) {
        const loaded = await store.load(hit.id, { namespace: hit.namespace });
        expect(loaded?.state.messages[0]?.content).toBe(hit.matchedMessages[0]);
      }
      expect(await store.delete('c', { namespace: 'a:b' })).toBe(true);
      expect(await store.exists('b:c', { namespace: 'a' })).toBe(true);
    });

    it('property: distinct (namespace, id) pairs never share storage', async () => {
      await fc.assert(
        fc.asyncProperty(distinctSessionPairsArb, async (pairs) => {
          const store = await hooks.make({});
          try {
            for (const [i, [id, namespace]] of pairs.entries()) {
              await store.save(id, sampleState([`p${i}`]), { namespace, expectedRevision: 0 });
            }
            for (const [i, [id, namespace]] of pairs.entries()) {
              const loaded = await store.load(id, { namespace });
              expect(loaded?.state.messages[0]?.content).toBe(`p${i}`);
            }
            const listed = await store.list();
            expect(listed).toHaveLength(pairs.length);
            for (const entry of listed) {
              const loaded = await store.load(entry.id, { namespace: entry.namespace });
              expect(loaded?.state.messages).toHaveLength(1);
            }
          } finally {
            await store.close();
          }
        }),
        { numRuns: 25 },
      );
    });

    it('validates ids and namespaces with the reference rules, on every method', async () => {
      const store = await make({});
      const cases: [string, unknown, unknown, string][] = [
        ['empty id', '', undefined, 'sessionId must not be empty'],
        ['null byte', 'a\u0000b', undefined, 'sessionId must not contain null bytes'],
        ['too long', 'x'.repeat(513), undefined, 'sessionId too long (513 chars, max 512)'],
        ['not a string', 42, undefined, 'sessionId must be a string, received 42'],
        ['empty namespace', 's1', '', 'namespace must not be empty when provided'],
        ['namespace null byte', 's1', 'n\u0000', 'namespace must not contain null bytes'],
        ['long namespace', 's1', 'n'.repeat(600), 'namespace too long (600 chars, max 512)'],
      ];
      for (const [, id, namespace, text] of cases) {
        const options = namespace === undefined ? undefined : { namespace };
        for (const call of [
          () => store.save(id as string, sampleState(), options as never),
          () => store.load(id as string, options as never),
          () => store.exists(id as string, options as never),
          () => store.delete(id as string, options as never),
          () => store.branch('src', id as string, options as never),
        ]) {
          const error = await rejection(call());
          expect(error).toBeInstanceOf(SessionIdError);
          expect(isConversationMemoryError(error) && error.code).toBe('CM_SESSION_ID');
          expect((error as Error).message).toContain(text);
        }
      }
      expect(await rejection(store.search('x', { namespace: '' }))).toBeInstanceOf(SessionIdError);
      // 512 characters (code points: an emoji counts once) is allowed.
      const long = '😀'.repeat(512);
      await store.save(long, sampleState());
      expect(await store.exists(long)).toBe(true);
      expect(await store.list()).toHaveLength(1);
    });

    it('accepts any other id, keeping each distinct and loadable', async () => {
      const store = await make({});
      const ids = [
        'a/b',
        '..',
        'a..b',
        '../../etc/passwd',
        'CON',
        'con',
        '.hidden',
        'Ab',
        'aB',
        'back\\slash',
        'colon:inside',
        'space and tab\t',
        'ünïcödé',
        '😀',
        '*?[]',
        'nul.json',
        'x.json.tmp',
      ];
      for (const [i, id] of ids.entries()) await store.save(id, sampleState([`text ${i}`]));
      for (const [i, id] of ids.entries()) {
        expect((await store.load(id))?.state.messages[0]?.content).toBe(`text ${i}`);
      }
      const listed = await store.list();
      expect(listed.map((entry) => entry.id).sort()).toEqual([...ids].sort());
      // The storage key is the id itself unless it has a `:` or a `%` (escaped, so that no bare
      // id can be mistaken for a namespaced one).
      for (const entry of listed) {
        expect(entry.namespace).toBeUndefined();
        expect(entry.sessionId).toBe(entry.id.replaceAll('%', '%25').replaceAll(':', '%3A'));
      }
      // Odd namespaces too.
      await store.save('id', sampleState(['ns']), { namespace: '../up' });
      expect((await store.load('id', { namespace: '../up' }))?.state.messages[0]?.content).toBe(
        'ns',
      );
      expect(await store.exists('id')).toBe(false);
    });

    it('echoes a hostile id escaped in its errors (conflict, missing branch source)', async () => {
      const store = await make({});
      const id = 'x\u2028INFO ok\u202e\u009b\u001b[2J';
      await store.save(id, sampleState());
      const conflict = await rejection(store.save(id, sampleState(), { expectedRevision: 0 }));
      expect(conflict).toBeInstanceOf(SessionConflictError);
      const missing = await rejection(store.branch(`${id}?`, 'copy'));
      expect(missing).toBeInstanceOf(MemoryArgumentError);
      for (const error of [conflict, missing] as Error[]) {
        // eslint-disable-next-line no-control-regex -- what a message must never carry raw
        expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/u);
      }
    });

    it('delete and exists', async () => {
      const store = await make({});
      expect(await store.delete('s1')).toBe(false);
      await store.save('s1', sampleState());
      expect(await store.exists('s1')).toBe(true);
      expect(await store.delete('s1')).toBe(true);
      expect(await store.exists('s1')).toBe(false);
      expect(await store.load('s1')).toBeNull();
      expect(await store.delete('s1')).toBe(false);
      // A save after a delete starts again at revision 1.
      expect(await store.save('s1', sampleState())).toEqual({ revision: 1 });
    });

    it('branch copies a session in its namespace; a missing source rejects', async () => {
      const store = await make({});
      const state = sampleState(['to', 'copy']);
      await store.save('src', state, { namespace: 'u1' });
      expect(await store.branch('src', 'copy', { namespace: 'u1' })).toEqual({ revision: 1 });
      expect((await store.load('copy', { namespace: 'u1' }))?.state).toEqual(state);
      expect(await store.exists('copy')).toBe(false);
      const error = await rejection(store.branch('nope', 'copy2'));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('session "nope" not found');
      expect(await store.exists('copy2')).toBe(false);
    });

    it('TTL: sliding, strict, and an expired session is absent everywhere', async () => {
      const clock = manualClock();
      const store = await make({ defaultTtl: 60, now: clock.now });
      await store.save('s1', sampleState(['lisbon trip']));
      clock.advance(60);
      expect((await store.load('s1'))?.revision).toBe(1); // exactly the TTL: still live
      await store.save('s1', sampleState(['lisbon trip', 'again']), { expectedRevision: 1 });
      clock.advance(59);
      expect(await store.exists('s1')).toBe(true); // the save reset the TTL
      clock.advance(2);
      expect(await store.load('s1')).toBeNull();
      expect(await store.exists('s1')).toBe(false);
      expect(await store.list()).toEqual([]);
      expect(await store.search('lisbon')).toEqual([]);
      expect(await store.delete('s1')).toBe(false);
      // Expired counts as absent for "only if absent", and revisions start again.
      expect(await store.save('s1', sampleState(), { expectedRevision: 0 })).toEqual({
        revision: 1,
      });
    });

    it('refuses a TTL of 0 or less, or not a number, when the store is made', async () => {
      for (const defaultTtl of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
        const error = await rejection(make({ defaultTtl }));
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toContain('defaultTtl must be a positive number');
      }
    });

    it('search: the reference scoring, snippets, ordering, limit and namespaces', async () => {
      const store = await make({});
      const long = `${'filler '.repeat(30)}the Lisbon hotel is near the river ${'more '.repeat(40)}`;
      let state = createMemory({ maxMessages: 50, tokenizer: 'heuristic' });
      state = addMessages(state, [
        message('system', 'lisbon lisbon lisbon (system messages are not searched)'),
        message('user', 'Plan Lisbon, then LISBON again'),
        message('assistant', long),
        { role: 'tool', content: 'lisbon from a tool', toolCallId: 'c1' },
        message('user', 'nothing here'),
      ]).state;
      await store.save('trip', state);
      await store.save('b-other', sampleState(['one hotel only']));
      await store.save('a-other', sampleState(['one hotel only']));
      await store.save('ns-trip', sampleState(['Lisbon in a namespace']), { namespace: 'u1' });

      const results = await store.search('lisbon HOTEL');
      if (hooks.searchScoring === 'fts5') {
        // Two matching messages, then three sessions of one, in bm25 order.
        expect(results.map((r) => [r.sessionId, Math.floor(r.score)])).toEqual([
          ['trip', 2],
          ...results.slice(1).map((r) => [r.sessionId, 1]),
        ]);
        expect(
          results
            .slice(1)
            .map((r) => r.sessionId)
            .sort(),
        ).toEqual(['a-other', 'b-other', 'u1:ns-trip']);
        const scores = results.map((r) => r.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      } else {
        expect(results.map((r) => [r.sessionId, r.score])).toEqual([
          ['trip', 4],
          ['a-other', 1],
          ['b-other', 1],
          ['u1:ns-trip', 1],
        ]);
      }
      const snippet = `...${long.slice(long.toLowerCase().indexOf('lisbon') - 40).slice(0, 154)}...`;
      expect(results[0]?.matchedMessages).toEqual(['Plan Lisbon, then LISBON again', snippet]);
      expect(snippet.length).toBeLessThanOrEqual(160);
      expect(await store.search('lisbon hotel', { limit: 2 })).toHaveLength(2);
      expect(await store.search('lisbon', { limit: 0 })).toEqual([]);
      expect(await store.search('   ')).toEqual([]);
      // With a namespace: only its sessions, ids bare.
      const inNamespace = await store.search('lisbon', { namespace: 'u1' });
      expect(inNamespace.map((r) => [r.sessionId, Math.floor(r.score), r.matchedMessages])).toEqual(
        [['ns-trip', 1, ['Lisbon in a namespace']]],
      );
      if (hooks.searchScoring !== 'fts5') expect(inNamespace[0]?.score).toBe(1);
    });

    it('search keeps at most 5 snippets per session and counts every match', async () => {
      const store = await make({});
      const texts = Array.from({ length: 8 }, (_, i) => `cat number ${i}`);
      await store.save('cats', sampleState(texts));
      const [hit] = await store.search('cat');
      expect(hooks.searchScoring === 'fts5' ? Math.floor(hit?.score ?? 0) : hit?.score).toBe(8);
      expect(hit?.matchedMessages).toEqual(texts.slice(0, 5));
    });

    sessionRetentionCases({
      make,
      makeOwn: hooks.make,
      corrupt: hooks.corrupt,
      asideCount: hooks.asideCount,
      searchScoring: hooks.searchScoring,
      runs: hooks.retentionRuns ?? 20,
    });

    if (hooks.corrupt !== undefined) {
      const corrupt = hooks.corrupt;
      it('a corrupt record: load rejects, list and search skip it, exists reports it, a save moves it aside', async () => {
        const store = await make({});
        await store.save('good', sampleState(['lisbon']));
        await store.save('bad', sampleState(['lisbon']));
        await corrupt(store, 'bad');
        const error = await rejection(store.load('bad'));
        expect(error).toBeInstanceOf(SessionCorruptError);
        expect(error).toMatchObject({ code: 'CM_SESSION_CORRUPT', sessionId: 'bad' });
        expect((error as SessionCorruptError).problems.length).toBeGreaterThan(0);
        expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['good']);
        expect((await store.search('lisbon')).map((r) => r.sessionId)).toEqual(['good']);
        expect(await store.exists('bad')).toBe(true);
        // A conditional save cannot know the damaged record's revision: it counts as absent once
        // moved aside, and the record is kept for inspection.
        const before = (await hooks.asideCount?.(store)) ?? 0;
        expect(await store.save('bad', sampleState(['fresh']))).toEqual({ revision: 1 });
        expect((await hooks.asideCount?.(store)) ?? 1).toBe(before + 1);
        expect((await store.load('bad'))?.state.messages[0]?.content).toBe('fresh');
      });
    }
  });
};
