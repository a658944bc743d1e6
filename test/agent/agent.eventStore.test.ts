import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  appendAction,
  ConversationMemory,
  createAgent,
  createEventLog,
  InMemoryEventStore,
  InMemorySessionStore,
  type MemoryAction,
  memoryActions,
  type MemoryOptions,
  type MemoryState,
  replay,
  SessionIdError,
  systemMessage,
  userMessage,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { EventConflictError } from 'conversation-memory';
import { RecordedMemory } from 'conversation-memory';
import type { EventStore } from 'conversation-memory';
import { SqliteEventStore } from 'conversation-memory/node';
import { collect } from '../stores/storeSamples';
import { scriptedProvider } from '../support/scriptedProvider';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-agent-events-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let files = 0;

const CONFIG: MemoryOptions = { maxMessages: 20, tokenizer: 'heuristic' };

const stores: [string, () => EventStore][] = [
  ['InMemoryEventStore', () => new InMemoryEventStore()],
  ['SqliteEventStore', () => new SqliteEventStore({ path: path.join(root, `e-${files++}.db`) })],
];

const actionsOf = async (store: EventStore, id: string): Promise<MemoryAction[]> =>
  (await collect(store.read(id))).map(({ action }) => action);

/** The stream's actions replayed in memory, from createMemory(config). */
const replayed = async (store: EventStore, id: string, config = CONFIG): Promise<MemoryState> =>
  replay((await actionsOf(store, id)).reduce(appendAction, createEventLog(config)));

/** A promise the test resolves by hand, and one that tells when the provider is waiting. */
const gate = () => {
  let open: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const waiting = new Promise<void>((resolve) => (reached = resolve));
  return { opened, open, waiting, reached };
};

/** The real store, with another writer that appends right after the next `load` (when armed). */
const racing = (store: EventStore, id: string) => {
  let armed = false;
  const raced: EventStore = {
    append: (...args) => store.append(...args),
    read: (...args) => store.read(...args),
    streams: (...args) => store.streams(...args),
    delete: (...args) => store.delete(...args),
    prune: (...args) => store.prune(...args),
    sweep: () => store.sweep(),
    deleteNamespace: (...args) => store.deleteNamespace(...args),
    close: () => store.close(),
    load: async (...args) => {
      const loaded = await store.load(...args);
      if (armed) {
        armed = false;
        await store.append(id, [memoryActions.messageAdded(userMessage('raced in'))], {
          expectedVersion: loaded?.version ?? 0,
        });
      }
      return loaded;
    },
  };
  return { store: raced, arm: () => (armed = true) };
};

describe.each(stores)('agent with an event store (%s)', (_name, makeStore) => {
  it('appends exactly the memory changes of each run; replay of the stream equals the memory', async () => {
    const store = makeStore();
    const agent = createAgent({
      provider: new LocalProvider(),
      eventStore: { store, streamId: 'thread-1', config: CONFIG },
    });
    expect(agent.memory).toBeInstanceOf(RecordedMemory);
    await agent.run([systemMessage('Be brief.'), userMessage('My name is Alice.')]);
    await agent.run("What's my name?");
    const actions = await actionsOf(store, 'thread-1');
    // One append per change: the input of each run, then its final answer.
    expect(actions.map((a) => a.type)).toEqual([
      'memory/messagesAdded',
      'memory/messagesAdded',
      'memory/messagesAdded',
      'memory/messagesAdded',
    ]);
    expect(actions.map((a) => (a.type === 'memory/messagesAdded' ? a.payload.length : 0))).toEqual([
      2, 1, 1, 1,
    ]);
    const memory = agent.memory as ConversationMemory;
    expect(memory.getHistory().at(-1)?.content).toBe('Your name is Alice.');
    expect(await replayed(store, 'thread-1')).toEqual(memory.state);
    const loaded = await store.load('thread-1');
    expect(loaded?.version).toBe(4);
    expect(loaded?.state).toEqual(memory.state);
    await store.close();
  });

  it('a second agent (another process: a fresh memory) continues the conversation from the stream', async () => {
    const store = makeStore();
    const where = { store, streamId: 'thread-2', namespace: 'user-42', config: CONFIG };
    await createAgent({ provider: new LocalProvider(), eventStore: where }).run('My name is Bob.');
    const memory = new RecordedMemory({ maxMessages: 3 });
    const second = createAgent({ provider: new LocalProvider(), memory, eventStore: where });
    const { message } = await second.run("What's my name?");
    expect(message.content).toBe('Your name is Bob.');
    // The stream's config (maxMessages 20), not the fresh memory's, governs the conversation.
    expect(memory.state.config.maxMessages).toBe(20);
    expect(memory.length).toBe(4);
    expect((await store.streams({ namespace: 'user-42' })).map((s) => s.version)).toEqual([4]);
    expect(await store.load('thread-2', { namespace: 'user-42' })).toEqual({
      state: memory.state,
      version: 4,
    });
    // An absent stream without a config is created with the memory's config.
    const own = new RecordedMemory({ maxMessages: 7, tokenizer: 'heuristic' });
    await createAgent({
      provider: new LocalProvider(),
      memory: own,
      eventStore: { store, streamId: 'own' },
    }).run('hi');
    expect((await store.load('own'))?.state.config.maxMessages).toBe(7);
    await store.close();
  });

  it('a conflict during a run is resolved by one reload and redo; nothing is appended twice', async () => {
    const store = makeStore();
    const g = gate();
    const provider = scriptedProvider(async (_request, call) => {
      if (call === 1) {
        g.reached();
        await g.opened;
      }
      return { role: 'assistant', content: `answer ${call}` };
    });
    const agent = createAgent({
      provider,
      eventStore: { store, streamId: 's', config: CONFIG },
    });
    const run = agent.run('question');
    await g.waiting;
    // Another writer appends while the model is thinking.
    await store.append('s', [memoryActions.messageAdded(userMessage('from elsewhere'))], {
      expectedVersion: 1,
    });
    g.open();
    const result = await run;
    expect(result.message.content).toBe('answer 1');
    const stored = await collect(store.read('s'));
    expect(stored.map((s) => s.version)).toEqual([1, 2, 3]);
    expect(
      stored.map(({ action }) =>
        action.type === 'memory/messagesAdded' ? action.payload.map((m) => m.content) : action.type,
      ),
    ).toEqual([['question'], 'memory/messageAdded', ['answer 1']]);
    const memory = agent.memory as ConversationMemory;
    expect(memory.getHistory().map((m) => m.content)).toEqual([
      'question',
      'from elsewhere',
      'answer 1',
    ]);
    expect(await replayed(store, 's')).toEqual(memory.state);
    await store.close();
  });

  it('a second conflict (another writer again, between the reload and the retry) rejects with EventConflictError', async () => {
    const base = makeStore();
    const { store, arm } = racing(base, 's');
    const g = gate();
    const provider = scriptedProvider(async () => {
      g.reached();
      await g.opened;
      return { role: 'assistant', content: 'late answer' };
    });
    const agent = createAgent({ provider, eventStore: { store, streamId: 's', config: CONFIG } });
    const run = agent.run('question');
    await g.waiting;
    await base.append('s', [memoryActions.messageAdded(userMessage('first writer'))], {
      expectedVersion: 1,
    });
    arm();
    g.open();
    const error: unknown = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventConflictError);
    expect((error as EventConflictError).code).toBe('CM_EVENT_CONFLICT');
    // The answer was never appended; the other writers' actions each once.
    const contents = (await actionsOf(base, 's')).map((a) =>
      a.type === 'memory/messageAdded' ? a.payload.content : a.type,
    );
    expect(contents).toEqual(['memory/messagesAdded', 'first writer', 'raced in']);
    // The memory holds nothing the stream lacks: the state it reloaded (version 2).
    expect((agent.memory as ConversationMemory).state).toEqual(
      (await base.load('s', { atVersion: 2 }))?.state,
    );
    // The next run starts from the stream, and works.
    await agent.run('again');
    expect(await replayed(base, 's')).toEqual((agent.memory as ConversationMemory).state);
    expect((await base.load('s'))?.version).toBe(5);
    await base.close();
  });

  it('summarize-on-trim runs record trimHeld and summaryCommitted; tool turns, clearMemory', async () => {
    const store = makeStore();
    const config = {
      maxMessages: 4,
      tokenizer: 'heuristic' as const,
      toolPairs: 'strict' as const,
    };
    const agent = createAgent({
      provider: new LocalProvider(),
      tools: [
        {
          name: 'add',
          description: 'Adds',
          parameters: { type: 'object' },
          execute: ({ a, b }) => Number(a) + Number(b),
        },
      ],
      eventStore: { store, streamId: 'sum', config },
      config: { summarizeOnTrim: true },
    });
    await agent.run('My name is Carol.');
    await agent.run('/call add {"a": 2, "b": 3}');
    await agent.run('Tell me something.');
    const { message } = await agent.run("What's my name?");
    expect(message.content).toBe('Your name is Carol.');
    const types = (await actionsOf(store, 'sum')).map((a) => a.type);
    expect(types).toContain('memory/trimHeld');
    expect(types).toContain('memory/summaryCommitted');
    const memory = agent.memory as ConversationMemory;
    expect(memory.summary).not.toBeNull();
    expect(await replayed(store, 'sum', config)).toEqual(memory.state);

    const count = types.length;
    await agent.clearMemory();
    const after = await actionsOf(store, 'sum');
    expect(after.length).toBe(count + 1);
    expect(after.at(-1)?.type).toBe('memory/cleared');
    expect(memory.length).toBe(0);
    expect(await replayed(store, 'sum', config)).toEqual(memory.state);
    await store.close();
  });
});

describe('agent eventStore option', () => {
  const store = new InMemoryEventStore();
  const provider = new LocalProvider();

  it('is refused with session, with a plain memory, or with a bad store, id or config', () => {
    expect(() =>
      createAgent({
        provider,
        session: { store: new InMemorySessionStore(), id: 'a' },
        eventStore: { store, streamId: 'a' },
      }),
    ).toThrow(AgentConfigError);
    expect(() =>
      createAgent({
        provider,
        memory: new ConversationMemory(),
        eventStore: { store, streamId: 'a' },
      }),
    ).toThrow(/memory must be a RecordedMemory/);
    expect(() =>
      createAgent({ provider, eventStore: { store: {} as EventStore, streamId: 'a' } }),
    ).toThrow(/eventStore.store must be an EventStore/);
    expect(() =>
      createAgent({ provider, eventStore: { store, streamId: 'a', config: { maxMessages: 0 } } }),
    ).toThrow(/eventStore.config is not valid/);
    expect(() => createAgent({ provider, eventStore: { store, streamId: '' } })).toThrow(
      SessionIdError,
    );
  });

  it('an append that fails otherwise (not a conflict) rejects the run; the memory stays as the stream', async () => {
    const real = new InMemoryEventStore();
    let failNext = false;
    const failing: EventStore = {
      load: (...args) => real.load(...args),
      read: (...args) => real.read(...args),
      streams: (...args) => real.streams(...args),
      delete: (...args) => real.delete(...args),
      prune: (...args) => real.prune(...args),
      sweep: () => real.sweep(),
      deleteNamespace: (...args) => real.deleteNamespace(...args),
      close: () => real.close(),
      append: async (...args) => {
        if (failNext) {
          failNext = false;
          throw new Error('disk full');
        }
        return real.append(...args);
      },
    };
    const agent = createAgent({ provider, eventStore: { store: failing, streamId: 'f' } });
    await agent.run('one');
    const before = (agent.memory as ConversationMemory).state;
    failNext = true;
    await expect(agent.run('two')).rejects.toThrow('disk full');
    expect((agent.memory as ConversationMemory).state).toEqual(before);
    expect((await real.load('f'))?.version).toBe(2);
    await agent.run('three');
    expect((await real.load('f'))?.state).toEqual((agent.memory as ConversationMemory).state);
    expect((await real.load('f'))?.version).toBe(4);
  });
});

describe('RecordedMemory', () => {
  it('records each change as its action; replaying them gives the state', () => {
    const memory = new RecordedMemory({ maxMessages: 2, tokenizer: 'heuristic' });
    const actions: MemoryAction[] = [];
    const stop = memory.onAction((action) => void actions.push(action));
    memory.add(userMessage('a'));
    memory.addMany([userMessage('b'), userMessage('c')]);
    for (const effect of memory.addMany([userMessage('d')])) {
      if (effect.type === 'memory/trimmed') memory.holdForSummary(effect);
    }
    memory.commitSummary('a, b were said', memory.pendingSummary.positions.at(-1) as number);
    memory.applySummary('more');
    memory.commitSummary('', 99); // changes nothing: not recorded
    expect(actions.map((a) => a.type)).toEqual([
      'memory/messageAdded',
      'memory/messagesAdded',
      'memory/messagesAdded',
      'memory/trimHeld',
      'memory/summaryCommitted',
      'memory/summaryApplied',
    ]);
    const log = actions.reduce(
      appendAction,
      createEventLog({ maxMessages: 2, tokenizer: 'heuristic' }),
    );
    expect(replay(log)).toEqual(memory.state);
    memory.clear();
    expect(actions.at(-1)?.type).toBe('memory/cleared');
    stop();
    memory.add(userMessage('e'));
    expect(actions).toHaveLength(7);
    expect(() => memory.onAction(42 as never)).toThrow(/listener must be a function/);
  });

  it('records a change whose subscriber threw; an invalid input records nothing', () => {
    const memory = new RecordedMemory();
    const actions: MemoryAction[] = [];
    memory.onAction((action) => void actions.push(action));
    memory.subscribe(() => {
      throw new Error('listener broke');
    });
    expect(() => memory.add(userMessage('kept'))).toThrow(/listener broke|subscriber|listener/);
    expect(memory.length).toBe(1);
    expect(actions).toHaveLength(1);
    expect(() => memory.add({ role: 'nobody' } as never)).toThrow();
    expect(actions).toHaveLength(1);
  });
});
