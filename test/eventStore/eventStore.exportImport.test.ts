import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  createMemory,
  fork,
  InMemoryEventStore,
  type MemoryAction,
  memoryActions,
  MemoryArgumentError,
  replay,
  seek,
  timeline,
  userMessage,
} from 'conversation-memory';
import { EventConflictError } from 'conversation-memory';
import { exportEventLog, importEventLog } from 'conversation-memory';
import { fromState } from '../../src/log/eventLog';
import type { EventStore } from 'conversation-memory';
import { SqliteEventStore } from 'conversation-memory/node';
import { collect } from '../stores/storeSamples';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-export-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let files = 0;

const CONFIG = { maxMessages: 6, tokenizer: 'heuristic', toolPairs: 'strict' } as const;
const said = (text: string): MemoryAction => memoryActions.messageAdded(userMessage(text));
const actions: MemoryAction[] = [
  ...Array.from({ length: 30 }, (_, i) => said(`m${i}`)),
  memoryActions.summaryApplied('an early summary'),
  memoryActions.cleared(),
  ...Array.from({ length: 7 }, (_, i) => said(`n${i}`)),
];

const stores: [string, () => EventStore][] = [
  ['InMemoryEventStore', () => new InMemoryEventStore({ snapshotEvery: 8 })],
  [
    'SqliteEventStore',
    () => new SqliteEventStore({ path: path.join(root, `x-${files++}.db`), snapshotEvery: 8 }),
  ],
];

describe.each(stores)('exportEventLog / importEventLog (%s)', (_name, makeStore) => {
  it('export gives a log with the stream config and actions; timeline and seek work on it', async () => {
    const store = makeStore();
    await store.append('a', actions, { expectedVersion: 0, config: CONFIG });
    const log = await exportEventLog(store, 'a', { snapshotEvery: 4 });
    expect(log).not.toBeNull();
    if (log === null) return;
    expect(log.length).toBe(actions.length);
    expect(log.snapshotEvery).toBe(4);
    expect(seek(log, 0)).toEqual(createMemory(CONFIG));
    expect(replay(log)).toEqual((await store.load('a'))?.state);
    expect(seek(log, 12)).toEqual((await store.load('a', { atVersion: 12 }))?.state);
    expect(timeline(log).map((s) => s.step)).toEqual(actions.map((_, i) => i + 1));
    const upTo = await exportEventLog(store, 'a', { toVersion: 5 });
    expect(upTo?.length).toBe(5);
    expect(await exportEventLog(store, 'absent')).toBeNull();
    await expect(exportEventLog(store, 'a', { snapshotEvery: 0 })).rejects.toThrow(
      MemoryArgumentError,
    );
    await store.close();
  });

  it('export → import → load equals, in batches; importing onto an existing stream conflicts', async () => {
    const store = makeStore();
    const log = actions.reduce(appendAction, createEventLog(CONFIG));
    const { version } = await importEventLog(store, 'b', log, { batchSize: 10, namespace: 'ns' });
    expect(version).toBe(actions.length);
    const loaded = await store.load('b', { namespace: 'ns' });
    expect(loaded?.state).toEqual(replay(log));
    expect((await collect(store.read('b', { namespace: 'ns' }))).map((s) => s.action)).toEqual(
      actions,
    );
    const back = await exportEventLog(store, 'b', { namespace: 'ns' });
    await importEventLog(store, 'c', back ?? log);
    expect((await store.load('c'))?.state).toEqual(loaded?.state);
    await expect(importEventLog(store, 'c', log)).rejects.toBeInstanceOf(EventConflictError);
    // An empty log makes an empty stream with the log's config.
    await importEventLog(store, 'empty', createEventLog(CONFIG));
    expect(await store.load('empty')).toEqual({ state: createMemory(CONFIG), version: 0 });
    // A log that does not start from an empty memory cannot become a stream.
    const midway = fromState(replay(log), 256);
    await expect(importEventLog(store, 'd', midway)).rejects.toThrow(/empty memory/);
    await expect(importEventLog(store, 'd', log, { batchSize: 0 })).rejects.toThrow(/batchSize/);
    expect(await store.load('d')).toBeNull();
    await store.close();
  });

  it('fork of a stored stream (export, fork, import) shares nothing mutable with the old one', async () => {
    const store = makeStore();
    await store.append('main', actions, { expectedVersion: 0, config: CONFIG });
    const log = await exportEventLog(store, 'main');
    if (log === null) throw new Error('no log');
    await importEventLog(store, 'branch', fork(log, 20));
    const mainBefore = await collect(store.read('main'));
    const branchBefore = await collect(store.read('branch'));
    expect(branchBefore.map((s) => s.action)).toEqual(actions.slice(0, 20));

    await store.append('branch', [said('only on the branch')], { expectedVersion: 20 });
    expect(await collect(store.read('main'))).toEqual(mainBefore);
    expect((await store.load('main'))?.version).toBe(actions.length);

    await store.append('main', [said('only on main')], { expectedVersion: actions.length });
    const branch = await collect(store.read('branch'));
    expect(branch.length).toBe(21);
    expect(branch.slice(0, 20)).toEqual(branchBefore);
    expect((await store.load('branch'))?.state.messages.at(-1)?.content).toBe('only on the branch');
    // Deleting the old stream leaves the fork whole.
    await store.delete('main');
    expect((await store.load('branch'))?.state).toEqual(
      replay(appendAction(fork(log, 20), said('only on the branch'))),
    );
    await store.close();
  });
});
