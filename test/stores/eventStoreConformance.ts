import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  EventConflictError,
  EventCorruptError,
  type EventStore,
  memoryActions,
  MemoryArgumentError,
  MemoryDecodeError,
  type MemoryAction,
  type MemoryOptions,
  replay,
  seek,
  SessionIdError,
} from 'conversation-memory';
import { memoryActionArb } from '../arbitraries/actions';
import { eventPruneCases } from './eventPruneCases';
import { eventRetentionCases, type EventStoreMakeOptions } from './eventRetentionCases';
import { distinctSessionPairsArb } from './sessionPairs';
import { collect, CONFIG } from './storeSamples';
import { rejection } from './suiteHelpers';

/**
 * What {@link eventStoreConformance} needs of the store under test: a factory, and for a store
 * that persists records, ways to damage them in the backend's own way (each one given adds the
 * tests that use it). Keys are storage keys (`ns:id` or `id`); versions count from 1.
 *
 * @example
 * ```ts
 * const hooks: EventStoreConformanceHooks = {
 *   make: async (options) => new InMemoryEventStore(options),
 * };
 * ```
 */
export interface EventStoreConformanceHooks {
  /**
   * A fresh, empty store with these options (`snapshotEvery`; `defaultTtl` in seconds and `now`,
   * the clock in Unix seconds, moved by hand by the TTL tests). Called once per test (or per
   * property); the suite closes it.
   */
  readonly make: (options: EventStoreMakeOptions) => Promise<EventStore>;
  /**
   * How many runs the retention properties (`deleteNamespace` after random appends, deletes and
   * prunes; `prune` over random streams) make (default 20): fewer for a backend where each run is
   * slow.
   */
  readonly retentionRuns?: number;
  /** Deletes every stored snapshot (they are only an optimisation). */
  readonly dropSnapshots?: (store: EventStore) => Promise<void>;
  /** Replaces the stored JSON of the action at `version` of stream `key` with `json`. */
  readonly corruptAction?: (
    store: EventStore,
    key: string,
    version: number,
    json: string,
  ) => Promise<void>;
  /** Deletes the stored action at `version` of stream `key` (a row or entry removed by hand). */
  readonly deleteAction?: (store: EventStore, key: string, version: number) => Promise<void>;
  /** Stores `json` as an action at `version` of stream `key`, where the stream holds none. */
  readonly insertAction?: (
    store: EventStore,
    key: string,
    version: number,
    json: string,
  ) => Promise<void>;
  /**
   * Stores a copy of the snapshot of stream `from.key` at `from.version` as the snapshot of
   * stream `to.key` at `to.version` (replacing any there).
   */
  readonly copySnapshot?: (
    store: EventStore,
    from: { readonly key: string; readonly version: number },
    to: { readonly key: string; readonly version: number },
  ) => Promise<void>;
}

const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

/** The in-memory log of the same actions: what every load must equal. */
const logOf = (actions: readonly MemoryAction[], config: MemoryOptions = CONFIG) =>
  actions.reduce(appendAction, createEventLog(config));

/**
 * The one conformance suite every event store passes (issue #10), as Vitest tests under a
 * `describe` named after the store: versions and conflicts (concurrent appends too), validation
 * of whole batches, the config fixed at creation, read ranges, load at any version, snapshots
 * that change no result (a fast-check property against the in-memory `replay`), delete, listing,
 * namespaces and ids, a closed store, and, with the damage hooks, corruption: actions that do not
 * decode, a stream with an action deleted or one added past its end (`read` and `load` reject
 * with `EventCorruptError`, never a partial state or `null`; `streams()` agrees with `load`), and
 * snapshots copied to another stream or version (passed over, never trusted), and retention
 * (`defaultTtl`, `sweep`, `deleteNamespace`, `prune`: see `eventRetentionCases` and
 * `eventPruneCases`). Call it at the top
 * level of a test file; it needs `vitest` and `fast-check` installed (optional peer dependencies).
 *
 * @example
 * ```ts
 * import { InMemoryEventStore } from 'conversation-memory';
 * import { eventStoreConformance } from 'conversation-memory/store-kit/testing';
 *
 * eventStoreConformance('InMemoryEventStore', {
 *   make: async (options) => new InMemoryEventStore(options),
 * });
 * ```
 */
export const eventStoreConformance = (name: string, hooks: EventStoreConformanceHooks): void => {
  describe(`${name}: EventStore conformance`, () => {
    const open: EventStore[] = [];
    const make = async (options: EventStoreMakeOptions = {}) => {
      const store = await hooks.make(options);
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    it('appends with expected versions, reads and loads what was appended', async () => {
      const store = await make();
      expect(await store.load('s1')).toBeNull();
      const first = [added('a'), added('b')];
      expect(await store.append('s1', first, { expectedVersion: 0, config: CONFIG })).toEqual({
        version: 2,
      });
      expect(await store.append('s1', [added('c')], { expectedVersion: 2 })).toEqual({
        version: 3,
      });
      const all = [...first, added('c')];
      expect(await collect(store.read('s1'))).toEqual(
        all.map((action, i) => ({ version: i + 1, action })),
      );
      expect(await store.load('s1')).toEqual({ state: replay(logOf(all)), version: 3 });
      // An empty append checks the version and writes nothing.
      expect(await store.append('s1', [], { expectedVersion: 3 })).toEqual({ version: 3 });
    });

    it('a stale expectedVersion fails with EventConflictError and writes nothing', async () => {
      const store = await make();
      await store.append('s1', [added('a')], { expectedVersion: 0 });
      for (const expectedVersion of [0, 2, 7]) {
        const error = await rejection(
          store.append('s1', [added('x'), added('y')], { expectedVersion }),
        );
        expect(error).toBeInstanceOf(EventConflictError);
        expect(error).toMatchObject({
          code: 'CM_EVENT_CONFLICT',
          streamId: 's1',
          expectedVersion,
          actualVersion: 1,
        });
      }
      expect((await collect(store.read('s1'))).map((e) => e.action)).toEqual([added('a')]);
      const absent = await rejection(store.append('new', [added('a')], { expectedVersion: 1 }));
      expect(absent).toMatchObject({ code: 'CM_EVENT_CONFLICT', actualVersion: 0 });
      expect(await store.load('new')).toBeNull();
    });

    it('of concurrent appends at one expectedVersion exactly one wins; the losers write nothing', async () => {
      const store = await make();
      await store.append('s1', [added('base')], { expectedVersion: 0 });
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) =>
          store.append('s1', [added(`w${i}-a`), added(`w${i}-b`)], { expectedVersion: 1 }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(EventConflictError);
      }
      const contents = (await collect(store.read('s1'))).map(
        (e) => (e.action as { payload?: { content?: unknown } }).payload?.content,
      );
      expect(contents).toHaveLength(3);
      expect(contents[1]).toMatch(/^w\d-a$/);
      expect(contents[2]).toBe(`${String(contents[1]).slice(0, 2)}-b`);
      // Creations race the same way.
      const creations = await Promise.allSettled(
        [1, 2, 3].map((i) => store.append('fresh', [added(`c${i}`)], { expectedVersion: 0 })),
      );
      expect(creations.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await store.load('fresh'))?.version).toBe(1);
    });

    it('checks every action first: one bad action rejects the whole batch, naming its path', async () => {
      const store = await make();
      const bad = { type: 'memory/messageAdded', payload: { role: 'USER', content: 'x' } };
      const error = await rejection(
        store.append('s1', [added('ok'), bad as never, added('ok too')], { expectedVersion: 0 }),
      );
      expect(error).toBeInstanceOf(MemoryDecodeError);
      expect((error as MemoryDecodeError).problems[0]).toMatch(/^actions\[1\]\.payload: .*role/);
      expect(await store.load('s1')).toBeNull();
      expect(await store.streams()).toEqual([]);
      const unknown = await rejection(
        store.append('s1', [added('a'), { type: 'nope' } as never], { expectedVersion: 0 }),
      );
      expect((unknown as MemoryDecodeError).problems[0]).toMatch(/^actions\[1\]\.type: /);
      for (const options of [undefined, {}, { expectedVersion: -1 }, { expectedVersion: 1.5 }]) {
        const e = await rejection(store.append('s1', [added('a')], options as never));
        expect(e).toBeInstanceOf(MemoryArgumentError);
        expect((e as Error).message).toContain('expectedVersion');
      }
      const notArray = await rejection(store.append('s1', 'x' as never, { expectedVersion: 0 }));
      expect((notArray as Error).message).toContain('actions must be an array');
      const badConfig = await rejection(
        store.append('s1', [], { expectedVersion: 0, config: { maxMessages: 0 } }),
      );
      expect((badConfig as Error).message).toContain('maxMessages');
      expect(await store.load('s1')).toBeNull();
    });

    it('keeps the config given at creation; later appends cannot change it; defaults without one', async () => {
      const store = await make();
      await store.append('s1', [], { expectedVersion: 0, config: CONFIG });
      expect(await store.load('s1')).toEqual({ state: createMemory(CONFIG), version: 0 });
      await store.append('s1', [added('a')], { expectedVersion: 0, config: { ...CONFIG } });
      const error = await rejection(
        store.append('s1', [added('b')], {
          expectedVersion: 1,
          config: { ...CONFIG, maxMessages: 99 },
        }),
      );
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('fixed at creation');
      await store.append('s1', [added('b')], { expectedVersion: 1 });
      expect((await store.load('s1'))?.state.config).toEqual(createMemory(CONFIG).config);
      await store.append('plain', [added('a')], { expectedVersion: 0 });
      expect((await store.load('plain'))?.state.config).toEqual(createMemory().config);
    });

    it('reads ranges (both ends included) and nothing for an absent stream', async () => {
      const store = await make({ snapshotEvery: 4 });
      const actions = Array.from({ length: 10 }, (_, i) => added(`m${i}`));
      await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
      const versions = async (options: object) =>
        (await collect(store.read('s1', options))).map((e) => e.version);
      expect(await versions({ fromVersion: 3, toVersion: 5 })).toEqual([3, 4, 5]);
      expect(await versions({ fromVersion: 9 })).toEqual([9, 10]);
      expect(await versions({ toVersion: 2 })).toEqual([1, 2]);
      expect(await versions({ fromVersion: 11 })).toEqual([]);
      expect(await versions({ fromVersion: 5, toVersion: 4 })).toEqual([]);
      expect(await versions({ toVersion: 99 })).toHaveLength(10);
      expect(await collect(store.read('absent'))).toEqual([]);
      for (const options of [{ fromVersion: 0 }, { toVersion: -1 }, { fromVersion: 'x' }]) {
        expect(await rejection(collect(store.read('s1', options as never)))).toBeInstanceOf(
          MemoryArgumentError,
        );
      }
    });

    it('loads any version: the latest snapshot at or below, then the tail', async () => {
      const store = await make({ snapshotEvery: 3 });
      const actions = [
        ...Array.from({ length: 7 }, (_, i) => added(`m${i}`)),
        memoryActions.summaryApplied('S'),
        added('after'),
        memoryActions.cleared(),
        added('last'),
      ];
      await store.append('s1', actions.slice(0, 4), { expectedVersion: 0, config: CONFIG });
      await store.append('s1', actions.slice(4), { expectedVersion: 4 });
      const log = logOf(actions);
      for (let n = 0; n <= actions.length; n++) {
        expect(await store.load('s1', { atVersion: n })).toEqual({
          state: seek(log, n),
          version: n,
        });
      }
      const past = await rejection(store.load('s1', { atVersion: actions.length + 1 }));
      expect(past).toBeInstanceOf(MemoryArgumentError);
      expect((past as Error).message).toContain('past the version');
      expect(await rejection(store.load('s1', { atVersion: -1 }))).toBeInstanceOf(
        MemoryArgumentError,
      );
    });

    it('snapshots change no result: load equals the in-memory replay (property)', async () => {
      for (const snapshotEvery of [1, 3, 1_000_000]) {
        const store = await make({ snapshotEvery });
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(memoryActionArb, { maxLength: 24 }),
            fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
            async (actions, sizes) => {
              const id = `p${run++}`;
              let version = 0;
              let i = 0;
              await store.append(id, [], { expectedVersion: 0, config: CONFIG });
              for (let k = 0; i < actions.length; k++) {
                const size = sizes[k % sizes.length] as number;
                const batch = actions.slice(i, i + size);
                ({ version } = await store.append(id, batch, { expectedVersion: version }));
                i += batch.length;
              }
              const log = logOf(actions);
              expect(await store.load(id)).toEqual({ state: replay(log), version: actions.length });
              const mid = Math.floor(actions.length / 2);
              expect((await store.load(id, { atVersion: mid }))?.state).toEqual(seek(log, mid));
              if (hooks.dropSnapshots !== undefined) {
                await hooks.dropSnapshots(store);
                expect(await store.load(id)).toEqual({
                  state: replay(log),
                  version: actions.length,
                });
                expect((await store.load(id, { atVersion: mid }))?.state).toEqual(seek(log, mid));
              }
            },
          ),
          { numRuns: 25 },
        );
      }
    });

    it('deletes a stream with its actions; the id can then be created again', async () => {
      const store = await make({ snapshotEvery: 2 });
      await store.append('s1', [added('a'), added('b'), added('c')], {
        expectedVersion: 0,
        config: CONFIG,
      });
      expect(await store.delete('s1')).toBe(true);
      expect(await store.delete('s1')).toBe(false);
      expect(await store.load('s1')).toBeNull();
      expect(await collect(store.read('s1'))).toEqual([]);
      const other = { ...CONFIG, maxMessages: 50 };
      await store.append('s1', [added('z')], { expectedVersion: 0, config: other });
      expect(await store.load('s1')).toEqual({
        state: replay(logOf([added('z')], other)),
        version: 1,
      });
    });

    it('lists streams sorted by id, with versions; a namespace lists its own with bare ids', async () => {
      const store = await make();
      const before = Date.now() / 1000;
      await store.append('b', [added('1')], { expectedVersion: 0 });
      await store.append('a', [added('1'), added('2')], { expectedVersion: 0 });
      await store.append('t1', [], { expectedVersion: 0, namespace: 'u1' });
      await store.append('t0', [added('x')], { expectedVersion: 0, namespace: 'u1' });
      const all = await store.streams();
      expect(all.map((s) => [s.streamId, s.id, s.namespace, s.version])).toEqual([
        ['a', 'a', undefined, 2],
        ['b', 'b', undefined, 1],
        ['u1:t0', 't0', 'u1', 1],
        ['u1:t1', 't1', 'u1', 0],
      ]);
      for (const s of all) {
        expect(s.createdAt).toBeGreaterThanOrEqual(before - 1);
        expect(s.createdAt).toBeLessThanOrEqual(Date.now() / 1000 + 1);
      }
      expect((await store.streams({ namespace: 'u1' })).map((s) => s.streamId)).toEqual([
        't0',
        't1',
      ]);
      expect(await store.streams({ namespace: 'nobody' })).toEqual([]);
    });

    it('keeps namespaces apart, and validates ids and namespaces like session ids', async () => {
      const store = await make();
      await store.append('t', [added('one')], { expectedVersion: 0, namespace: 'u1' });
      await store.append('t', [added('two'), added('three')], {
        expectedVersion: 0,
        namespace: 'u2',
      });
      expect((await store.load('t', { namespace: 'u1' }))?.version).toBe(1);
      expect((await store.load('t', { namespace: 'u2' }))?.version).toBe(2);
      expect(await store.load('t')).toBeNull();
      const odd = 'ünï/cödé 💬 \'"; DROP TABLE x; --';
      await store.append(odd, [added('x')], { expectedVersion: 0 });
      expect((await store.load(odd))?.version).toBe(1);
      for (const call of [
        () => store.append('', [], { expectedVersion: 0 }),
        () => store.append('a\u0000b', [], { expectedVersion: 0 }),
        () => store.append('x'.repeat(513), [], { expectedVersion: 0 }),
        () => store.append('x', [], { expectedVersion: 0, namespace: '' }),
        () => store.load(''),
        () => collect(store.read('')),
        () => store.delete(''),
        () => store.streams({ namespace: '' }),
      ]) {
        expect(await rejection(call())).toBeInstanceOf(SessionIdError);
      }
    });

    it('property: distinct (namespace, id) pairs never share a stream', async () => {
      await fc.assert(
        fc.asyncProperty(distinctSessionPairsArb, async (pairs) => {
          const store = await hooks.make({});
          try {
            for (const [i, [id, namespace]] of pairs.entries()) {
              const actions = Array.from({ length: i + 1 }, (_, j) => added(`${i}.${j}`));
              await store.append(id, actions, { expectedVersion: 0, namespace });
            }
            for (const [i, [id, namespace]] of pairs.entries()) {
              expect((await store.load(id, { namespace }))?.version).toBe(i + 1);
            }
            const listed = await store.streams();
            expect(listed).toHaveLength(pairs.length);
            for (const info of listed) {
              expect((await store.load(info.id, { namespace: info.namespace }))?.version).toBe(
                info.version,
              );
            }
          } finally {
            await store.close();
          }
        }),
        { numRuns: 20 },
      );
      const store = await make();
      await expect(store.append('\ud800', [], { expectedVersion: 0 })).rejects.toBeInstanceOf(
        SessionIdError,
      );
    });

    it('rejects every call after close', async () => {
      const store = await hooks.make({});
      await store.append('s1', [added('a')], { expectedVersion: 0 });
      await store.close();
      await store.close();
      for (const call of [
        () => store.append('s1', [], { expectedVersion: 1 }),
        () => store.load('s1'),
        () => collect(store.read('s1')),
        () => store.streams(),
        () => store.delete('s1'),
      ]) {
        const error = await rejection(call());
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toContain('the store is closed');
      }
    });

    const runs = hooks.retentionRuns ?? 20;
    eventRetentionCases({ make, makeOwn: hooks.make, runs });
    eventPruneCases({ make, runs });

    if (hooks.corruptAction !== undefined) {
      const corruptAction = hooks.corruptAction;
      it('a stored action that does not decode: load and read reject with EventCorruptError naming stream, version and path', async () => {
        const store = await make({ snapshotEvery: 100 });
        await store.append('s1', [added('a'), added('b'), added('c')], {
          expectedVersion: 0,
          namespace: 'u1',
        });
        await corruptAction(
          store,
          'u1:s1',
          2,
          '{"type":"memory/messageAdded","payload":{"role":"USER","content":"b"}}',
        );
        const error = await rejection(store.load('s1', { namespace: 'u1' }));
        expect(error).toBeInstanceOf(EventCorruptError);
        expect(error).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 'u1:s1', version: 2 });
        expect((error as EventCorruptError).problems[0]).toMatch(/^action\.payload: .*role/);
        // Versions before the bad one still load; read yields up to it, then rejects.
        expect((await store.load('s1', { namespace: 'u1', atVersion: 1 }))?.version).toBe(1);
        const seen: number[] = [];
        const failed = await rejection(
          (async () => {
            for await (const entry of store.read('s1', { namespace: 'u1' }))
              seen.push(entry.version);
          })(),
        );
        expect(seen).toEqual([1]);
        expect(failed).toMatchObject({ code: 'CM_EVENT_CORRUPT', version: 2 });
        await corruptAction(store, 'u1:s1', 2, '{not json');
        const notJson = await rejection(store.load('s1', { namespace: 'u1' }));
        expect((notJson as EventCorruptError).problems[0]).toMatch(/^action: not JSON/);
      });
    }
    if (hooks.deleteAction !== undefined) {
      const deleteAction = hooks.deleteAction;
      it('an action deleted inside a stream (a gap): read and load reject with EventCorruptError, never a partial state', async () => {
        // No snapshot covers the gap: load replays it.
        const store = await make({ snapshotEvery: 100 });
        await store.append(
          's1',
          [1, 2, 3, 4, 5].map((i) => added(`m${i}`)),
          {
            expectedVersion: 0,
            namespace: 'u1',
          },
        );
        await store.append('ok', [added('a')], { expectedVersion: 0, namespace: 'u1' });
        await deleteAction(store, 'u1:s1', 3);
        const error = await rejection(store.load('s1', { namespace: 'u1' }));
        expect(error).toBeInstanceOf(EventCorruptError);
        expect(error).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 'u1:s1' });
        expect((error as EventCorruptError).problems[0]).toMatch(/^stream: /);
        const seen: number[] = [];
        const failed = await rejection(
          (async () => {
            for await (const entry of store.read('s1', { namespace: 'u1' })) {
              seen.push(entry.version);
            }
          })(),
        );
        expect(failed).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 'u1:s1' });
        // What read yielded before rejecting is whole: versions 1, 2, … up to the gap at most.
        expect(seen).toEqual(seen.map((_, i) => i + 1));
        expect(seen.length).toBeLessThan(3);
        // streams() and load agree: a listed stream loads at its listed version or rejects.
        for (const info of await store.streams()) {
          const loaded: unknown = await store
            .load(info.id, { namespace: info.namespace })
            .catch((error: unknown) => error);
          if (info.streamId === 'u1:ok') expect(loaded).toMatchObject({ version: 1 });
          else expect(loaded).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: info.streamId });
        }
        // The last action deleted: the stream is not a shorter sound one.
        await store.append('s2', [added('a'), added('b'), added('c')], { expectedVersion: 0 });
        await deleteAction(store, 's2', 3);
        expect(await rejection(store.load('s2'))).toMatchObject({
          code: 'CM_EVENT_CORRUPT',
          streamId: 's2',
        });
        for (const expectedVersion of [2, 3]) {
          expect(
            await rejection(store.append('s2', [added('x')], { expectedVersion })),
          ).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 's2' });
        }
        expect((await store.streams()).map((info) => info.streamId)).not.toContain('s2');
      });

      it('a gap below the latest snapshot: load (which starts from the snapshot) and append reject with EventCorruptError, as read does; nothing is written', async () => {
        const store = await make({ snapshotEvery: 4 });
        const actions = Array.from({ length: 10 }, (_, i) => added(`m${i}`));
        await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
        await store.append('fine', actions, { expectedVersion: 0, config: CONFIG });
        // Below the snapshots at 4 and 8: a load of the latest version replays only 9 and 10.
        await deleteAction(store, 's1', 3);
        const corrupt = { code: 'CM_EVENT_CORRUPT', streamId: 's1' };
        expect(await rejection(collect(store.read('s1')))).toMatchObject(corrupt);
        for (const options of [undefined, { atVersion: 10 }, { atVersion: 9 }, { atVersion: 8 }]) {
          const error = await rejection(store.load('s1', options));
          expect(error).toBeInstanceOf(EventCorruptError);
          expect(error).toMatchObject(corrupt);
          expect((error as EventCorruptError).problems[0]).toMatch(/^stream: /);
        }
        for (const expectedVersion of [10, 9]) {
          for (const batch of [[added('x')], []]) {
            const error = await rejection(store.append('s1', batch, { expectedVersion }));
            expect(error).toBeInstanceOf(EventCorruptError);
            expect(error).toMatchObject(corrupt);
          }
        }
        // Nothing was written: what can still be read above the gap ends at version 10.
        const seen: number[] = [];
        await (async () => {
          for await (const entry of store.read('s1', { fromVersion: 4 })) seen.push(entry.version);
        })().catch((error: unknown) => expect(error).toMatchObject(corrupt));
        expect(seen.at(-1) ?? 10).toBe(10);
        // The other stream is untouched.
        expect(await store.load('fine')).toEqual({ state: replay(logOf(actions)), version: 10 });
        expect(await store.append('fine', [added('x')], { expectedVersion: 10 })).toEqual({
          version: 11,
        });
      });
    }

    if (hooks.insertAction !== undefined) {
      const insertAction = hooks.insertAction;
      it('an action past the end of a stream (after a gap): load rejects instead of returning null, streams() leaves it out, append writes nothing', async () => {
        const store = await make({ snapshotEvery: 4 });
        const actions = Array.from({ length: 10 }, (_, i) => added(`m${i}`));
        await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
        await store.append('fine', [added('a')], { expectedVersion: 0, config: CONFIG });
        await insertAction(store, 's1', 12, JSON.stringify(added('extra')));
        for (const options of [undefined, { atVersion: 10 }, { atVersion: 3 }]) {
          const error = await rejection(store.load('s1', options));
          expect(error).toBeInstanceOf(EventCorruptError);
          expect(error).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 's1' });
          expect((error as EventCorruptError).problems[0]).toMatch(/^stream: /);
        }
        expect(await rejection(collect(store.read('s1')))).toMatchObject({
          code: 'CM_EVENT_CORRUPT',
          streamId: 's1',
        });
        for (const expectedVersion of [10, 11, 12]) {
          expect(
            await rejection(store.append('s1', [added('x')], { expectedVersion })),
          ).toMatchObject({ code: 'CM_EVENT_CORRUPT', streamId: 's1' });
        }
        expect((await store.streams()).map((info) => [info.streamId, info.version])).toEqual([
          ['fine', 1],
        ]);
      });
    }

    if (hooks.copySnapshot !== undefined) {
      const copySnapshot = hooks.copySnapshot;
      it('a snapshot copied from another stream, or to another version of its own, is passed over: load equals the replay', async () => {
        const store = await make({ snapshotEvery: 4 });
        const mine = Array.from({ length: 10 }, (_, i) => added(`s-${i}`));
        const theirs = Array.from({ length: 10 }, (_, i) => added(`t-${i}`));
        await store.append('s', mine, { expectedVersion: 0, config: CONFIG });
        await store.append('t', theirs, { expectedVersion: 0, config: CONFIG, namespace: 'u1' });
        const log = logOf(mine);
        const check = async () => {
          for (let n = 0; n <= mine.length; n++) {
            expect(await store.load('s', { atVersion: n })).toEqual({
              state: seek(log, n),
              version: n,
            });
          }
          expect(await store.load('s')).toEqual({ state: replay(log), version: 10 });
        };
        // Another stream's snapshot, at the same version.
        await copySnapshot(store, { key: 'u1:t', version: 8 }, { key: 's', version: 8 });
        await check();
        // The stream's own snapshot, at another version.
        await copySnapshot(store, { key: 's', version: 4 }, { key: 's', version: 8 });
        await check();
        // Another stream's, at another version.
        await copySnapshot(store, { key: 'u1:t', version: 8 }, { key: 's', version: 4 });
        await check();
        // The other stream is untouched by all this.
        expect(await store.load('t', { namespace: 'u1' })).toEqual({
          state: replay(logOf(theirs)),
          version: 10,
        });
      });
    }
  });
};
