import { describe, expect, it } from 'vitest';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  ConversationMemory,
  createAgent,
  createMemory,
  DEFAULT_CONFIG,
  InMemoryEventStore,
  InMemorySessionStore,
  memoryActions,
  PROVIDER_SAFE,
  reconfigure,
  RecordedMemory,
  type EventStore,
  type MemoryState,
  type SessionStore,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { SqliteEventStore, SqliteSessionStore } from 'conversation-memory/node';
import {
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStoreState,
} from 'conversation-memory/zustand';
import { contents, user } from '../helpers';
import { mapStorage, type RecordingStorage } from '../support/stateStorages';
import { makeChatStore } from '../support/reduxStore';
import { tempDatabasePaths, withDatabaseFile } from '../support/sqliteFiles';

/**
 * Which config wins when a stored conversation is loaded (issue #16 §5): the stored one, as in the
 * reference, on every kind of store; and the one line that applies the application's new config.
 */

const freshPath = tempDatabasePaths('cm-reconfigure-');
const SAFE_DEFAULTS = { ...DEFAULT_CONFIG, toolPairs: 'strict', startOn: 'user', pinSystem: true };
const texts = ['one', 'two', 'three', 'four', 'five'];

describe('a memory the agent makes defaults to PROVIDER_SAFE', () => {
  it('with a session: the memory and the saved state have the provider-safe policy', async () => {
    const store = new InMemorySessionStore();
    const agent = createAgent({ provider: new LocalProvider(), session: { store, id: 's1' } });
    expect(agent.memory?.state.config).toEqual(SAFE_DEFAULTS);
    await agent.run('My name is Alice.');
    expect((await store.load('s1'))?.state.config).toEqual(SAFE_DEFAULTS);
  });

  it('with an event store and no config: the stream is created with the provider-safe policy', async () => {
    const store = new InMemoryEventStore();
    const agent = createAgent({
      provider: new LocalProvider(),
      eventStore: { store, streamId: 't1' },
    });
    expect(agent.memory?.state.config).toEqual(SAFE_DEFAULTS);
    await agent.run('My name is Alice.');
    expect((await store.load('t1'))?.state.config).toEqual(SAFE_DEFAULTS);
  });

  it('a given memory, and an explicit eventStore.config, keep their own policy', async () => {
    const sessions = new InMemorySessionStore();
    const memory = new ConversationMemory();
    const given = createAgent({
      provider: new LocalProvider(),
      memory,
      session: { store: sessions, id: 's1' },
    });
    await given.run('hi');
    expect((await sessions.load('s1'))?.state.config).toEqual(DEFAULT_CONFIG);

    const events = new InMemoryEventStore();
    const configured = createAgent({
      provider: new LocalProvider(),
      eventStore: { store: events, streamId: 't1', config: { maxMessages: 5 } },
    });
    await configured.run('hi');
    expect((await events.load('t1'))?.state.config).toEqual({ ...DEFAULT_CONFIG, maxMessages: 5 });

    const recorded = createAgent({
      provider: new LocalProvider(),
      memory: new RecordedMemory({ maxMessages: 7 }),
      eventStore: { store: events, streamId: 't2' },
    });
    await recorded.run('hi');
    expect((await events.load('t2'))?.state.config).toEqual({ ...DEFAULT_CONFIG, maxMessages: 7 });
  });
});

describe('Zustand persist: the stored config wins; dispatch(reconfigured) applies the new one', () => {
  const persisted = (storage: RecordingStorage, maxMessages: number) =>
    createStore<MemoryStoreState>()(
      persist(memoryStateCreator({ maxMessages, tokenizer: 'heuristic' }), {
        name: 'chat',
        storage: memoryPersistStorage(storage),
      }),
    );

  it('rehydrates the stored config, then the one-liner trims to the new limit and persists it', () => {
    const storage = mapStorage();
    const first = persisted(storage, 10);
    for (const text of texts) first.getState().dispatch(memoryActions.messageAdded(user(text)));

    // The application now asks for maxMessages 2: the stored state (maxMessages 10) wins.
    const second = persisted(storage, 2);
    expect(second.getState().memory.config.maxMessages).toBe(10);
    expect(second.getState().memory.messages).toHaveLength(5);

    const effects = second.getState().dispatch(memoryActions.reconfigured({ maxMessages: 2 }));
    expect(effects.map((e) => e.type)).toEqual(['memory/reconfigured', 'memory/trimmed']);
    expect(contents(second.getState().memory.messages)).toEqual(['four', 'five']);
    const third = persisted(storage, 2);
    expect(third.getState().memory).toEqual(second.getState().memory);
  });

  it('the Redux slice applies it through memoryActionApplied', () => {
    const { store, chats } = makeChatStore({ maxMessages: 10, tokenizer: 'heuristic' });
    store.dispatch(chats.actions.conversationCreated({ conversationId: 'a' }));
    store.dispatch(chats.actions.messagesAdded({ conversationId: 'a', messages: texts.map(user) }));
    store.dispatch(
      chats.actions.memoryActionApplied({
        conversationId: 'a',
        action: memoryActions.reconfigured({ maxMessages: 2 }),
      }),
    );
    const memory = (
      store.getState() as { conversations: { conversations: Record<string, MemoryState> } }
    ).conversations.conversations['a'];
    expect(memory?.config.maxMessages).toBe(2);
    expect(contents(memory?.messages ?? [])).toEqual(['four', 'five']);
  });
});

describe.each([
  ['InMemorySessionStore', (): SessionStore => new InMemorySessionStore()],
  ['SqliteSessionStore', (): SessionStore => new SqliteSessionStore({ path: freshPath() })],
])('sessions (%s): the stored config wins; reconfigure applies the new one', (_name, make) => {
  it('a loaded memory takes the new limit with memory.reconfigure(newConfig)', async () => {
    const store = make();
    const old = new ConversationMemory({ maxMessages: 10, tokenizer: 'heuristic' });
    old.addMany(texts.map(user));
    await store.save('s1', old.state);

    const memory = new ConversationMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    const loaded = await store.load('s1');
    memory.restore((loaded as { state: MemoryState }).state);
    expect(memory.maxMessages).toBe(10);
    expect(memory.length).toBe(5);
    memory.reconfigure({ maxMessages: 2 });
    expect(contents(memory.getHistory())).toEqual(['four', 'five']);
    await store.close?.();
  });

  it("an agent's session: the agent's memory config loses to the stored one until the session is reconfigured", async () => {
    const store = make();
    const where = { store, id: 's1' };
    const first = createAgent({ provider: new LocalProvider(), session: where });
    await first.run('My name is Alice.');
    await first.run('I like tea.');
    expect((await store.load('s1'))?.state.messages).toHaveLength(4);

    const memory = new ConversationMemory({ ...PROVIDER_SAFE, maxMessages: 2 });
    const second = createAgent({ provider: new LocalProvider(), memory, session: where });
    await second.run('And coffee.');
    expect(memory.maxMessages).toBe(20);
    expect(memory.length).toBe(6);

    // The one line for a stored session: load it, reconfigure it, save it at its revision.
    const s = await store.load('s1');
    if (s)
      await store.save('s1', reconfigure(s.state, { maxMessages: 2 }).state, {
        expectedRevision: s.revision,
      });

    await second.run('Thanks.');
    expect(memory.maxMessages).toBe(2);
    expect(memory.length).toBe(2);
    expect(memory.getHistory()[0]?.role).toBe('user');
    await store.close?.();
  });
});

describe.each([
  ['InMemoryEventStore', (): EventStore => new InMemoryEventStore({ snapshotEvery: 2 })],
  [
    'SqliteEventStore',
    (): EventStore => new SqliteEventStore({ path: freshPath(), snapshotEvery: 2 }),
  ],
])(
  'event store (%s): the stream config wins; appending reconfigured applies the new one',
  (_name, make) => {
    it('appends memoryActions.reconfigured; loads, later appends and the agent follow it', async () => {
      const store = make();
      const config = { maxMessages: 10, tokenizer: 'heuristic' as const };
      await store.append(
        't1',
        texts.map((text) => memoryActions.messageAdded(user(text))),
        {
          expectedVersion: 0,
          config,
        },
      );

      // An agent configured with maxMessages 2 works on the stream's config (maxMessages 10).
      const agent = createAgent({
        provider: new LocalProvider(),
        eventStore: { store, streamId: 't1', config: { ...config, maxMessages: 2 } },
      });
      await agent.run('hi');
      expect(agent.memory?.state.config.maxMessages).toBe(10);
      expect(agent.memory?.length).toBe(7);

      // The one line: append the new config to the stream at its version.
      const loaded = await store.load('t1');
      await store.append('t1', [memoryActions.reconfigured({ maxMessages: 2 })], {
        expectedVersion: loaded?.version ?? 0,
      });

      const after = await store.load('t1');
      expect(after?.state.config).toEqual(createMemory({ ...config, maxMessages: 2 }).config);
      expect(after?.state.messages).toHaveLength(2);
      // Every version loads as the replay of its actions says, across the snapshots.
      const before = await store.load('t1', { atVersion: (after?.version ?? 1) - 1 });
      expect(before?.state.config.maxMessages).toBe(10);

      await agent.run('again');
      expect(agent.memory?.state.config.maxMessages).toBe(2);
      expect(agent.memory?.length).toBe(2);
      const reloaded = await store.load('t1');
      expect(reloaded?.state).toEqual(agent.memory?.state);
      await store.close();
    });
  },
);

describe('SqliteEventStore snapshots after a reconfigure', () => {
  it('a snapshot whose state has the new config is used, not passed over', async () => {
    const file = freshPath();
    const store = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    const config = { maxMessages: 10, tokenizer: 'heuristic' as const };
    const actions = [
      memoryActions.messageAdded(user('one')),
      memoryActions.reconfigured({ maxMessages: 3 }),
      ...['two', 'three', 'four', 'five', 'six'].map((text) =>
        memoryActions.messageAdded(user(text)),
      ),
    ];
    await store.append('t1', actions, { expectedVersion: 0, config });
    const expected = await store.load('t1');
    expect(contents(expected?.state.messages ?? [])).toEqual(['four', 'five', 'six']);
    // With the snapshot at version 4 used, versions 1 to 4 are not read again: damage one.
    withDatabaseFile(file, (db) =>
      db.prepare("UPDATE event_actions SET action = 'damaged' WHERE version = 1").run(),
    );
    const reopened = new SqliteEventStore({ path: file, snapshotEvery: 4 });
    expect(await reopened.load('t1')).toEqual(expected);
    await reopened.append('t1', [memoryActions.messageAdded(user('seven'))], {
      expectedVersion: 7,
    });
    expect(contents((await reopened.load('t1'))?.state.messages ?? [])).toEqual([
      'five',
      'six',
      'seven',
    ]);
    await store.close();
    await reopened.close();
  });
});
