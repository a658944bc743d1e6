import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  ConversationMemory,
  createAgent,
  InMemorySessionStore,
  type AgentObserver,
  type LoadedSession,
  type Message,
  SessionConflictError,
  SessionIdError,
  type SessionStore,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { scriptedProvider } from '../support/scriptedProvider';

/** Records the session events an agent sends. */
const recorder = () => {
  const events: string[] = [];
  const observer: AgentObserver = {
    onSessionLoad: (_runId, sessionId, count) => void events.push(`load ${sessionId} ${count}`),
    onSessionSave: (_runId, sessionId, count) => void events.push(`save ${sessionId} ${count}`),
  };
  return { events, observer };
};

const contents = (loaded: LoadedSession | null): (string | null)[] =>
  loaded?.state.messages.map((m) => m.content) ?? [];

/** A promise the test resolves by hand. */
const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

describe('agent sessions', () => {
  it('saves a new session at the end of a run; a second agent (another process) loads it', async () => {
    const store = new InMemorySessionStore();
    const first = recorder();
    const alice = createAgent({
      provider: new LocalProvider(),
      session: { store, id: 'thread-1', namespace: 'user-42' },
      observers: [first.observer],
    });
    expect(alice.memory).toBeInstanceOf(ConversationMemory);
    await alice.run('My name is Alice.');
    // Nothing was loaded (the session was absent), so no onSessionLoad; the save creates it.
    expect(first.events).toEqual(['save user-42:thread-1 2']);
    const stored = await store.load('thread-1', { namespace: 'user-42' });
    expect(stored?.revision).toBe(1);
    expect(stored?.state).toBe(alice.memory?.state);

    // Another agent with its own (empty) memory: the stored session replaces it at the start.
    const second = recorder();
    const memory = new ConversationMemory();
    const bob = createAgent({
      provider: new LocalProvider(),
      memory,
      session: { store, id: 'thread-1', namespace: 'user-42' },
      observers: [second.observer],
    });
    const result = await bob.run("What's my name?");
    expect(result.message.content).toContain('Alice');
    expect(second.events).toEqual(['load user-42:thread-1 2', 'save user-42:thread-1 4']);
    expect((await store.load('thread-1', { namespace: 'user-42' }))?.revision).toBe(2);
    expect(memory.length).toBe(4);
  });

  it('a run that throws saves nothing', async () => {
    const store = new InMemorySessionStore();
    const agent = createAgent({
      provider: scriptedProvider(() => {
        throw new Error('provider down');
      }),
      session: { store, id: 's1' },
    });
    await expect(agent.run('hello')).rejects.toThrow('provider down');
    expect(await store.exists('s1')).toBe(false);
  });

  it('when another writer saved during the run, the run’s messages are added onto its state', async () => {
    const store = new InMemorySessionStore();
    const slow = gate();
    const started = gate();
    const a = createAgent({
      provider: scriptedProvider(async () => {
        started.open();
        await slow.opened;
        return { role: 'assistant', content: 'A reply' };
      }),
      session: { store, id: 'shared' },
    });
    const b = createAgent({
      provider: scriptedProvider(() => ({ role: 'assistant', content: 'B reply' })),
      session: { store, id: 'shared' },
    });
    const running = a.run('A asks');
    await started.opened; // A loaded (nothing) and is waiting for its model
    await b.run('B asks'); // B saves revision 1 meanwhile
    slow.open();
    await running; // A's save expected 0, conflicts, and is redone on B's state
    const stored = await store.load('shared');
    expect(stored?.revision).toBe(2);
    expect(contents(stored)).toEqual(['B asks', 'B reply', 'A asks', 'A reply']);
    expect(a.memory?.state).toBe(stored?.state);
  });

  it('a second conflict rejects with SessionConflictError', async () => {
    const inner = new InMemorySessionStore();
    // A store where another writer always saves right after each load.
    const store: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
      load: async (id: string, options?: { namespace?: string }) => {
        const loaded = await inner.load(id, options);
        await inner.save(id, loaded?.state ?? new ConversationMemory().state, options);
        return loaded;
      },
      save: inner.save.bind(inner),
    });
    const agent = createAgent({ provider: new LocalProvider(), session: { store, id: 'hot' } });
    await expect(agent.run('hello')).rejects.toBeInstanceOf(SessionConflictError);
  });

  it('clearMemory saves the cleared memory, so the next run does not load the old one back', async () => {
    const store = new InMemorySessionStore();
    const agent = createAgent({ provider: new LocalProvider(), session: { store, id: 's1' } });
    await agent.run('My name is Alice.');
    await agent.clearMemory();
    expect((await store.load('s1'))?.state.messages).toEqual([]);
    const result = await agent.run("What's my name?");
    expect(result.message.content).not.toContain('Alice');
  });

  it('checks the session option', () => {
    const provider = new LocalProvider();
    expect(() => createAgent({ provider, session: { store: {} as never, id: 's' } })).toThrow(
      AgentConfigError,
    );
    expect(() =>
      createAgent({ provider, session: { store: new InMemorySessionStore(), id: '' } }),
    ).toThrow(SessionIdError);
    expect(() =>
      createAgent({
        provider,
        session: { store: new InMemorySessionStore(), id: 's', namespace: '' },
      }),
    ).toThrow('namespace must not be empty');
  });

  it('a corrupt or failing store rejects the run instead of running on an empty memory', async () => {
    const failing: SessionStore = Object.assign(new InMemorySessionStore(), {
      load: async () => {
        throw new Error('store unreachable');
      },
    });
    const seen: Message[][] = [];
    const agent = createAgent({
      provider: scriptedProvider((request) => {
        seen.push([...request.messages]);
        return { role: 'assistant', content: 'ok' };
      }),
      session: { store: failing, id: 's1' },
    });
    await expect(agent.run('hello')).rejects.toThrow('store unreachable');
    expect(seen).toEqual([]); // the model was never called
  });
});
