import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  EventConflictError,
  type EventStore,
  memoryActions,
  MemoryArgumentError,
  type MemoryAction,
  type MemoryOptions,
  replay,
  SessionIdError,
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
import { collect, CONFIG } from './storeSamples';
import { manualClock, rejection } from './suiteHelpers';

/**
 * The options the event suite makes its stores with: `snapshotEvery`, and `defaultTtl` (seconds)
 * with `now` (the clock in Unix seconds, moved by hand by the TTL tests).
 *
 * @example
 * ```ts
 * const options: EventStoreMakeOptions = { snapshotEvery: 4, defaultTtl: 60, now: () => 1_000 };
 * ```
 */
export interface EventStoreMakeOptions {
  readonly snapshotEvery?: number;
  readonly defaultTtl?: number;
  readonly now?: () => number;
}

/** What the retention cases need of the event suite: its factories and the property's runs. */
export interface EventRetentionContext {
  /** A fresh store the suite closes after the test. */
  readonly make: (options?: EventStoreMakeOptions) => Promise<EventStore>;
  /** A fresh store the caller closes (one per run of a property). */
  readonly makeOwn: (options: EventStoreMakeOptions) => Promise<EventStore>;
  /** Runs of the erasure property. */
  readonly runs: number;
}

const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

const texts = (prefix: string, count: number): MemoryAction[] =>
  Array.from({ length: count }, (_, i) => added(`${prefix} ${i}`));

const logOf = (actions: readonly MemoryAction[], config: MemoryOptions = CONFIG) =>
  actions.reduce(appendAction, createEventLog(config));

/** Everything an event store shows of one namespace, as JSON (a rejection as its code). */
const streamReads = async (store: EventStore, namespace: RetentionNamespace): Promise<Readable> => {
  const reads: Readable = new Map();
  for (const id of RETENTION_IDS) {
    reads.set(`load ${id}`, await outcome(store.load(id, { namespace })));
    reads.set(`read ${id}`, await outcome(collect(store.read(id, { namespace }))));
  }
  reads.set('streams', JSON.stringify(inNamespace(await store.streams(), namespace)));
  if (namespace !== undefined) {
    reads.set('streams in namespace', JSON.stringify(await store.streams({ namespace })));
  }
  return reads;
};

/**
 * The retention cases of the event suite (issue #30) but `prune` (see `eventPruneCases`):
 * `defaultTtl` (sliding from the last append; an expired stream is absent everywhere and a new
 * append starts it afresh), `sweep`, `deleteNamespace` (exactly one namespace, a fast-check
 * property over random appends, deletes and prunes) and its refusals, and both after `close()`.
 * Registered inside the suite's `describe`.
 *
 * @example
 * ```ts
 * eventRetentionCases({ make, makeOwn: hooks.make, runs: hooks.retentionRuns ?? 20 });
 * ```
 */
export const eventRetentionCases = (context: EventRetentionContext): void => {
  const { make } = context;

  it('TTL: a stream expires defaultTtl seconds after its last append (prune does not count); expired, it is absent everywhere and a new append starts afresh', async () => {
    const clock = manualClock();
    const store = await make({ snapshotEvery: 2, defaultTtl: 60, now: clock.now });
    await store.append('s1', texts('old', 3), { expectedVersion: 0, config: CONFIG });
    await store.append('other', texts('x', 1), { expectedVersion: 0, namespace: 'a' });
    clock.advance(60);
    expect((await store.load('s1'))?.version).toBe(3); // exactly the TTL: still live
    expect(await store.append('s1', texts('more', 2), { expectedVersion: 3 })).toEqual({
      version: 5,
    });
    clock.advance(59);
    expect((await store.streams()).map((info) => info.streamId)).toEqual(['s1']);
    expect(await store.prune('s1', { before: 4 })).toEqual({ removed: 3 });
    clock.advance(2);
    expect(await store.load('s1')).toBeNull();
    expect(await collect(store.read('s1'))).toEqual([]);
    expect(await collect(store.read('s1', { fromVersion: 4 }))).toEqual([]);
    expect(await store.streams()).toEqual([]);
    expect(await rejection(store.prune('s1', { before: 4 }))).toBeInstanceOf(MemoryArgumentError);
    const stale = await rejection(store.append('s1', texts('late', 1), { expectedVersion: 5 }));
    expect(stale).toBeInstanceOf(EventConflictError);
    expect(stale).toMatchObject({ expectedVersion: 5, actualVersion: 0 });
    // A new stream under the same id: nothing of the old one (actions, snapshots, config).
    const other = { ...CONFIG, maxMessages: 50 };
    const fresh = texts('new', 3);
    expect(await store.append('s1', fresh, { expectedVersion: 0, config: other })).toEqual({
      version: 3,
    });
    expect(await store.load('s1')).toEqual({ state: replay(logOf(fresh, other)), version: 3 });
    expect(await store.load('s1', { atVersion: 2 })).toEqual({
      state: replay(logOf(fresh.slice(0, 2), other)),
      version: 2,
    });
    expect((await collect(store.read('s1'))).map((entry) => entry.action)).toEqual(fresh);
    const [info] = await store.streams();
    expect(info).toMatchObject({ streamId: 's1', version: 3 });
    expect(info).not.toHaveProperty('prunedBefore');
    // An expired stream is not there to delete.
    expect(await store.delete('other', { namespace: 'a' })).toBe(false);
  });

  it('refuses a TTL of 0 or less, or not a number, when the store is made', async () => {
    for (const defaultTtl of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await rejection(make({ defaultTtl }));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('defaultTtl must be a positive number');
    }
  });

  it('sweep removes exactly the expired streams, with their actions and snapshots, and counts them; live ones stay as they were', async () => {
    const clock = manualClock();
    const store = await make({ snapshotEvery: 2, defaultTtl: 60, now: clock.now });
    await store.append('old', texts('old', 5), { expectedVersion: 0, config: CONFIG });
    await store.append('old', texts('old a', 3), { expectedVersion: 0, namespace: 'a' });
    await store.append('pruned', texts('p', 4), { expectedVersion: 0 });
    await store.prune('pruned', { before: 3 });
    clock.advance(30);
    const kept = texts('kept', 5);
    await store.append('kept', kept, { expectedVersion: 0, config: CONFIG });
    await store.append('kept', texts('kept a', 1), { expectedVersion: 0, namespace: 'a' });
    const before = {
      load: await store.load('kept'),
      at3: await store.load('kept', { atVersion: 3 }),
      read: await collect(store.read('kept')),
      a: await collect(store.read('kept', { namespace: 'a' })),
    };
    clock.advance(31);
    expect(await store.sweep()).toEqual({ removed: 3 });
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect({
      load: await store.load('kept'),
      at3: await store.load('kept', { atVersion: 3 }),
      read: await collect(store.read('kept')),
      a: await collect(store.read('kept', { namespace: 'a' })),
    }).toEqual(before);
    expect(before.load).toEqual({ state: replay(logOf(kept)), version: 5 });
    expect((await store.streams()).map((info) => info.streamId)).toEqual(['a:kept', 'kept']);
    // Gone, not hidden: the id starts again at version 0.
    expect(await store.append('old', texts('again', 1), { expectedVersion: 0 })).toEqual({
      version: 1,
    });
    expect(await store.append('pruned', [], { expectedVersion: 0 })).toEqual({ version: 0 });
    clock.advance(61);
    expect(await store.sweep()).toEqual({ removed: 4 });
    expect(await store.streams()).toEqual([]);
  });

  it('sweep without a TTL removes nothing', async () => {
    const clock = manualClock();
    const store = await make({ now: clock.now });
    await store.append('s1', texts('a', 2), { expectedVersion: 0 });
    clock.advance(1e9);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect((await store.load('s1'))?.version).toBe(2);
  });

  it('deleteNamespace removes that namespace’s streams (actions, snapshots, pruned or expired) and nothing else; the ids start afresh', async () => {
    const clock = manualClock();
    const store = await make({ snapshotEvery: 2, defaultTtl: 60, now: clock.now });
    await store.append('expired', texts('e', 3), { expectedVersion: 0, namespace: 'a' });
    clock.advance(61);
    const kept = [
      ['c', 'a:b'],
      ['b:c', undefined],
      ['a:s', undefined],
      ['c', 'a%3Ab'],
      ['c', 'ab'],
    ] as const;
    for (const [id, namespace] of kept) {
      await store.append(id, texts(id, 3), { expectedVersion: 0, namespace });
    }
    for (const id of ['s', 'b:c', '%3A']) {
      await store.append(id, texts(id, 5), { expectedVersion: 0, namespace: 'a', config: CONFIG });
    }
    await store.prune('s', { before: 4, namespace: 'a' });
    // Read stream by stream: a listing may collect the expired stream it meets.
    const shown = async () =>
      Promise.all(kept.map(([id, namespace]) => store.load(id, { namespace })));
    const before = await shown();
    expect(await store.deleteNamespace('a')).toEqual({ removed: 4 });
    expect(await shown()).toEqual(before);
    expect((await store.streams()).map((info) => info.streamId).sort()).toEqual(
      ['a%3Ab:c', 'ab:c', 'a%253Ab:c', 'a%3As', 'b%3Ac'].sort(),
    );
    expect(await store.streams({ namespace: 'a' })).toEqual([]);
    for (const id of ['s', 'b:c', '%3A', 'expired']) {
      expect(await store.load(id, { namespace: 'a' })).toBeNull();
      expect(await collect(store.read(id, { namespace: 'a' }))).toEqual([]);
    }
    expect(await store.deleteNamespace('a')).toEqual({ removed: 0 });
    expect(await store.sweep()).toEqual({ removed: 0 });
    const fresh = texts('fresh', 1);
    expect(await store.append('s', fresh, { expectedVersion: 0, namespace: 'a' })).toEqual({
      version: 1,
    });
    expect(await collect(store.read('s', { namespace: 'a' }))).toEqual([
      { version: 1, action: fresh[0] },
    ]);
    expect((await store.load('s', { namespace: 'a' }))?.state.config).toEqual(
      createMemory().config,
    );
    expect((await store.streams({ namespace: 'a' }))[0]).not.toHaveProperty('prunedBefore');
  });

  it('deleteNamespace refuses a missing or invalid namespace, removing nothing', async () => {
    const store = await make({});
    await store.append('s', texts('a', 1), { expectedVersion: 0, namespace: 'a' });
    await store.append('s', texts('b', 1), { expectedVersion: 0 });
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
    expect(await store.streams()).toHaveLength(2);
  });

  it('property: after deleteNamespace nothing of the namespace is readable, and every other namespace reads back byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        retentionOpsArb(['delete', 'prune']),
        fc.constantFrom(...DELETED_NAMESPACES),
        async (ops, deleted) => {
          const store = await context.makeOwn({ snapshotEvery: 2 });
          try {
            for (const { kind, namespace, id, n } of ops) {
              const version = (await store.load(id, { namespace }))?.version ?? 0;
              if (kind === 'delete') await store.delete(id, { namespace });
              else if (kind === 'prune' && version > 0) {
                await store.prune(id, { before: Math.min(version, n + 1), namespace });
              } else if (kind !== 'prune') {
                const actions = texts(`${namespace ?? '-'} ${id} ${version}`, n);
                await store.append(id, actions, { expectedVersion: version, namespace });
              }
            }
            const read = (namespace: RetentionNamespace) => streamReads(store, namespace);
            const before = await readableBy(read);
            const count = inNamespace(await store.streams(), deleted).length;
            expect(await store.deleteNamespace(deleted)).toEqual({ removed: count });
            const after = await readableBy(read);
            for (const [namespace, reads] of after) {
              if (namespace !== deleted) expect(reads).toEqual(before.get(namespace));
            }
            const gone = after.get(deleted) as Readable;
            for (const id of RETENTION_IDS) {
              expect(gone.get(`load ${id}`)).toBe('null');
              expect(gone.get(`read ${id}`)).toBe('[]');
            }
            expect(gone.get('streams')).toBe('[]');
            expect(gone.get('streams in namespace')).toBe('[]');
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: context.runs },
    );
  });

  it('sweep, deleteNamespace and prune reject after close', async () => {
    const store = await context.makeOwn({});
    await store.append('s', texts('a', 2), { expectedVersion: 0, namespace: 'a' });
    await store.close();
    for (const call of [
      () => store.sweep(),
      () => store.deleteNamespace('a'),
      () => store.prune('s', { before: 2, namespace: 'a' }),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('the store is closed');
    }
  });
};
