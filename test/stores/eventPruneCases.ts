import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  type EventStore,
  EventPrunedError,
  memoryActions,
  MemoryArgumentError,
  type MemoryAction,
  replay,
  seek,
  type StoredAction,
} from 'conversation-memory';
import { memoryActionArb } from '../arbitraries/actions';
import type { EventStoreMakeOptions } from './eventRetentionCases';
import { collect, CONFIG } from './storeSamples';
import { rejection } from './suiteHelpers';

/** What the prune cases need of the event suite: its factory and the property's runs. */
export interface EventPruneContext {
  /** A fresh store the suite closes after the test. */
  readonly make: (options?: EventStoreMakeOptions) => Promise<EventStore>;
  /** Runs of the prune property. */
  readonly runs: number;
}

const added = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

const logOf = (actions: readonly MemoryAction[]) =>
  actions.reduce(appendAction, createEventLog(CONFIG));

/** A stream's actions of every kind the reducers keep (messages, a summary, a clear). */
const ACTIONS: readonly MemoryAction[] = [
  ...Array.from({ length: 6 }, (_, i) => added(`m${i}`)),
  memoryActions.summaryApplied('earlier: m0 to m5'),
  added('after the summary'),
  memoryActions.cleared(),
  added('after the clear'),
  added('last'),
];

/** What `read` yields before it rejects, and how it rejects (`undefined`: it did not). */
const readAll = async (
  entries: AsyncIterable<StoredAction>,
): Promise<{ seen: StoredAction[]; error: unknown }> => {
  const seen: StoredAction[] = [];
  try {
    for await (const entry of entries) seen.push(entry);
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: undefined };
};

/** Everything a stream shows at or after `from`: each load and each read from there on. */
const fromOn = async (
  store: EventStore,
  id: string,
  from: number,
  to: number,
  namespace?: string,
) => {
  const shown: unknown[] = [];
  for (let v = from; v <= to; v++) {
    shown.push(await store.load(id, { atVersion: v, namespace }));
    shown.push(await collect(store.read(id, { fromVersion: v, namespace })));
  }
  shown.push(
    await store.load(id, { namespace }),
    await collect(store.read(id, { fromVersion: from, toVersion: to, namespace })),
  );
  return shown;
};

/**
 * The `prune` cases of the event suite (issue #30 §2): what stays from `before` on is unchanged
 * (loads, reads, and a fast-check property over random streams), what is gone rejects with
 * `EventPrunedError` before anything is yielded, `streams()` reports `prunedBefore`, a prune
 * already done removes nothing, appends and snapshots go on, and bad calls are refused with
 * nothing changed. Registered inside the suite's `describe`.
 *
 * @example
 * ```ts
 * eventPruneCases({ make, runs: hooks.retentionRuns ?? 20 });
 * ```
 */
export const eventPruneCases = (context: EventPruneContext): void => {
  const { make } = context;

  it('prune keeps everything from `before` on: load at any version ≥ before, read from any version ≥ before, unchanged', async () => {
    const store = await make({ snapshotEvery: 4 });
    await store.append('s1', ACTIONS.slice(0, 5), { expectedVersion: 0, config: CONFIG });
    await store.append('s1', ACTIONS.slice(5), { expectedVersion: 5 });
    const last = ACTIONS.length;
    const shown = await fromOn(store, 's1', 6, last);
    const shownFrom10 = await fromOn(store, 's1', 10, last);
    // 6 is no multiple of snapshotEvery: the snapshot prune stores is the only one below 8.
    expect(await store.prune('s1', { before: 6 })).toEqual({ removed: 5 });
    expect(await fromOn(store, 's1', 6, last)).toEqual(shown);
    expect(await store.load('s1')).toEqual({ state: replay(logOf(ACTIONS)), version: last });
    expect(await store.load('s1', { atVersion: 7 })).toEqual({
      state: seek(logOf(ACTIONS), 7),
      version: 7,
    });
    // Past the next snapshot, and again from a later one.
    expect(await store.prune('s1', { before: 10 })).toEqual({ removed: 4 });
    expect(await fromOn(store, 's1', 10, last)).toEqual(shownFrom10);
  });

  it('below `before`, read and load reject with EventPrunedError before yielding anything', async () => {
    const store = await make({ snapshotEvery: 4 });
    await store.append('s1', ACTIONS, { expectedVersion: 0, config: CONFIG, namespace: 'u1' });
    await store.prune('s1', { before: 6, namespace: 'u1' });
    for (const options of [{}, { fromVersion: 1 }, { fromVersion: 5, toVersion: 8 }]) {
      const { seen, error } = await readAll(store.read('s1', { ...options, namespace: 'u1' }));
      expect(seen).toEqual([]);
      expect(error).toBeInstanceOf(EventPrunedError);
      expect(error).toMatchObject({
        code: 'CM_EVENT_PRUNED',
        streamId: 'u1:s1',
        requestedVersion: (options as { fromVersion?: number }).fromVersion ?? 1,
        firstVersion: 6,
      });
      expect((error as Error).message).toContain('was pruned before version 6');
    }
    for (const atVersion of [0, 1, 4, 5]) {
      const error = await rejection(store.load('s1', { atVersion, namespace: 'u1' }));
      expect(error).toBeInstanceOf(EventPrunedError);
      expect(error).toMatchObject({
        streamId: 'u1:s1',
        requestedVersion: atVersion,
        firstVersion: 6,
      });
    }
  });

  it('streams() reports prunedBefore for a pruned stream only; a prune already done removes nothing', async () => {
    const store = await make({ snapshotEvery: 4 });
    await store.append('s1', ACTIONS, { expectedVersion: 0, config: CONFIG });
    await store.append('s2', ACTIONS, { expectedVersion: 0, config: CONFIG });
    await store.append('s1', ACTIONS, { expectedVersion: 0, namespace: 'u1' });
    // `before` 1 cuts nothing: the stream is not pruned.
    expect(await store.prune('s2', { before: 1 })).toEqual({ removed: 0 });
    expect(await store.prune('s1', { before: 7 })).toEqual({ removed: 6 });
    const listed = await store.streams();
    expect(listed.map((info) => [info.streamId, info.version, info.prunedBefore])).toEqual([
      ['s1', ACTIONS.length, 7],
      ['s2', ACTIONS.length, undefined],
      ['u1:s1', ACTIONS.length, undefined],
    ]);
    for (const info of listed.slice(1)) expect(info).not.toHaveProperty('prunedBefore');
    expect((await store.streams({ namespace: 'u1' }))[0]).not.toHaveProperty('prunedBefore');
    const shown = await fromOn(store, 's1', 7, ACTIONS.length);
    for (const before of [7, 3, 1]) {
      expect(await store.prune('s1', { before })).toEqual({ removed: 0 });
    }
    expect(await fromOn(store, 's1', 7, ACTIONS.length)).toEqual(shown);
    expect((await store.streams())[0]?.prunedBefore).toBe(7);
    // The other streams (one of them the same id in a namespace) are untouched.
    expect(await collect(store.read('s2'))).toHaveLength(ACTIONS.length);
    expect(await collect(store.read('s1', { namespace: 'u1' }))).toHaveLength(ACTIONS.length);
  });

  it('after a prune, appends go on from the version, snapshots go on, and load finds the prune’s snapshot', async () => {
    const store = await make({ snapshotEvery: 4 });
    await store.append('s1', ACTIONS.slice(0, 9), { expectedVersion: 0, config: CONFIG });
    // Up to the version itself: the state at 9 is the snapshot, action 9 stays.
    expect(await store.prune('s1', { before: 9 })).toEqual({ removed: 8 });
    expect(await collect(store.read('s1', { fromVersion: 9 }))).toEqual([
      { version: 9, action: ACTIONS[8] },
    ]);
    const more = [...ACTIONS.slice(9), ...Array.from({ length: 7 }, (_, i) => added(`n${i}`))];
    expect(await store.append('s1', more.slice(0, 3), { expectedVersion: 9 })).toEqual({
      version: 12,
    });
    expect(await store.append('s1', more.slice(3), { expectedVersion: 12 })).toEqual({
      version: 9 + more.length,
    });
    const all = [...ACTIONS.slice(0, 9), ...more];
    const log = logOf(all);
    for (let v = 9; v <= all.length; v++) {
      expect(await store.load('s1', { atVersion: v })).toEqual({ state: seek(log, v), version: v });
    }
    expect(await store.load('s1')).toEqual({ state: replay(log), version: all.length });
    expect((await collect(store.read('s1', { fromVersion: 9 }))).map((e) => e.action)).toEqual(
      all.slice(8),
    );
    // A later prune starts from a snapshot taken after the first one.
    expect(await store.prune('s1', { before: all.length })).toEqual({ removed: all.length - 9 });
    expect(await store.load('s1')).toEqual({ state: replay(log), version: all.length });
  });

  it('prune refuses an absent stream, a `before` past the version, and bad options, changing nothing', async () => {
    const store = await make({ snapshotEvery: 4 });
    await store.append('s1', ACTIONS, { expectedVersion: 0, config: CONFIG, namespace: 'u1' });
    await store.append('empty', [], { expectedVersion: 0 });
    const shown = await fromOn(store, 's1', 1, ACTIONS.length, 'u1');
    const absent = await rejection(store.prune('nope', { before: 1 }));
    expect(absent).toBeInstanceOf(MemoryArgumentError);
    expect((absent as Error).message).toContain('"nope" not found');
    // Another namespace's stream is another stream.
    expect(await rejection(store.prune('s1', { before: 2 }))).toBeInstanceOf(MemoryArgumentError);
    expect(await rejection(store.prune('empty', { before: 1 }))).toBeInstanceOf(
      MemoryArgumentError,
    );
    const past = await rejection(
      store.prune('s1', { before: ACTIONS.length + 1, namespace: 'u1' }),
    );
    expect(past).toBeInstanceOf(MemoryArgumentError);
    expect((past as Error).message).toContain(`at most the stream's version ${ACTIONS.length}`);
    for (const [options, text] of [
      [undefined, 'options'],
      [{}, 'options.before'],
      [{ before: 0 }, 'options.before'],
      [{ before: 1.5 }, 'options.before'],
      [{ before: '3' }, 'options.before'],
      [{ befor: 3 }, 'did you mean before?'],
    ] as const) {
      const error = await rejection(store.prune('s1', options as never));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain(text);
    }
    expect(await fromOn(store, 's1', 1, ACTIONS.length, 'u1')).toEqual(shown);
    expect(
      (await store.streams()).map((info) => [info.streamId, info.version, info.prunedBefore]),
    ).toEqual([
      ['empty', 0, undefined],
      ['u1:s1', ACTIONS.length, undefined],
    ]);
  });

  it('property: a prune changes nothing a load or read from `before` on returns', async () => {
    let run = 0;
    const store = await make({ snapshotEvery: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(memoryActionArb, { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        async (actions, cuts) => {
          const id = `p${run++}`;
          await store.append(id, actions, { expectedVersion: 0, config: CONFIG });
          const log = logOf(actions);
          let first = 1;
          for (const cut of cuts) {
            const before = 1 + (cut % actions.length);
            const { removed } = await store.prune(id, { before });
            expect(removed).toBe(Math.max(0, before - first));
            first = Math.max(first, before);
            for (let v = first; v <= actions.length; v++) {
              expect(await store.load(id, { atVersion: v })).toEqual({
                state: seek(log, v),
                version: v,
              });
            }
            expect(
              (await collect(store.read(id, { fromVersion: first }))).map((e) => e.action),
            ).toEqual(actions.slice(first - 1));
            if (first > 1) {
              expect(await rejection(store.load(id, { atVersion: first - 1 }))).toBeInstanceOf(
                EventPrunedError,
              );
            }
          }
        },
      ),
      { numRuns: context.runs },
    );
  });
};
