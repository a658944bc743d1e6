/**
 * A session the store no longer has (deleted by another store object on the same data, or expired
 * by `defaultTtl`) starts again from the agent's start on the next run, and a save never writes
 * back what the agent held of it: on every session store, between runs and during a run (in a
 * tool, in an observer hook). Issue #27, item 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessages,
  type AgentObserver,
  type AgentTool,
  ConversationMemory,
  createAgent,
  createMemory,
  InMemorySessionStore,
  PROVIDER_SAFE,
  type SessionStore,
  systemMessage,
  userMessage,
} from 'conversation-memory';
import {
  JsonFileSessionStore,
  RedisSessionStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { LocalProvider } from 'conversation-memory/testing';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-agent-vanished-'));
let redis: RedisTestServer;
let made = 0;

beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);

afterAll(async () => {
  await redis.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const opened: SessionStore[] = [];
afterEach(async () => {
  // Nothing left behind on a shared server (REDIS_URL), then the connections closed.
  for (const store of opened.splice(0)) {
    await store.delete(ID, where);
    await store.close();
  }
});

/** Store options with a clock the test moves by hand. */
interface Clocked {
  readonly defaultTtl: number;
  readonly now: () => number;
}

/**
 * Two store objects over the same data (one for the agent, one for "another process" that
 * deletes), both on one clock. The in-memory store has no shared backing data: its one object
 * plays both parts.
 */
const backends: [string, (options: Clocked) => [SessionStore, SessionStore]][] = [
  [
    'InMemorySessionStore',
    (options) => {
      const store = new InMemorySessionStore(options);
      return [store, store];
    },
  ],
  [
    'JsonFileSessionStore',
    (options) => {
      const directory = path.join(root, `dir-${made++}`);
      return [
        new JsonFileSessionStore({ directory, ...options }),
        new JsonFileSessionStore({ directory, ...options }),
      ];
    },
  ],
  [
    'SqliteSessionStore',
    (options) => {
      const file = path.join(root, `db-${made++}.sqlite`);
      return [
        new SqliteSessionStore({ path: file, ...options }),
        new SqliteSessionStore({ path: file, ...options }),
      ];
    },
  ],
  [
    'RedisSessionStore',
    (options) => {
      const prefix = `cm-vanished-${process.pid}-${made++}:`;
      return [
        new RedisSessionStore({ url: redis.url, prefix, ...options }),
        new RedisSessionStore({ url: redis.url, prefix, ...options }),
      ];
    },
  ],
];

type How = 'deleted' | 'expired';
type When = 'between runs' | 'in a tool' | 'in an observer hook';

const cases: [How, When][] = [
  ['deleted', 'between runs'],
  ['expired', 'between runs'],
  ['deleted', 'in a tool'],
  ['expired', 'in a tool'],
  ['deleted', 'in an observer hook'],
  ['expired', 'in an observer hook'],
];

const TTL = 60;
const ID = 'thread-1';
const NAMESPACE = 'user-42';
const KEY = `${NAMESPACE}:${ID}`;
const where = { namespace: NAMESPACE };
const DONT_KNOW = 'I don\'t know your name yet. Tell me with "my name is …".';

describe.each(backends)('an agent whose session vanished (%s)', (_name, makeStores) => {
  it.each(cases)(
    '%s %s: the next save holds only the new messages, and the agent no longer knows the old ones',
    async (how, when) => {
      let now = 1_764_500_000;
      const [store, other] = makeStores({ defaultTtl: TTL, now: () => now });
      opened.push(store);
      if (other !== store) opened.push(other);
      const vanish = async () => {
        if (how === 'deleted') expect(await other.delete(ID, where)).toBe(true);
        else now += TTL + 1;
        expect(await other.exists(ID, where)).toBe(false);
      };
      const events: string[] = [];
      let armed = false;
      const observer: AgentObserver = {
        onSessionLoad: (_run, key, count) => void events.push(`load ${key} ${count}`),
        onSessionSave: (_run, key, count) => void events.push(`save ${key} ${count}`),
        onModelCall: async () => {
          if (!armed || when !== 'in an observer hook') return;
          armed = false;
          await vanish();
        },
      };
      const vanishTool: AgentTool = {
        name: 'vanish',
        description: 'deletes or expires the session, as another process would',
        parameters: { type: 'object', properties: {} },
        execute: async () => {
          await vanish();
          return 'gone';
        },
      };
      const agent = createAgent({
        provider: new LocalProvider(),
        session: { store, id: ID, namespace: NAMESPACE },
        tools: [vanishTool],
        observers: [observer],
      });
      await agent.run('My name is Ada.');
      expect((await agent.run("What's my name?")).message.content).toBe('Your name is Ada.');
      expect((await other.load(ID, where))?.state.messages).toHaveLength(4);
      events.length = 0;

      // The run during which (or before which) the session vanishes.
      let input = "What's my name?";
      if (when === 'between runs') await vanish();
      if (when === 'in a tool') input = '/call vanish {}';
      if (when === 'in an observer hook') [input, armed] = ['Hello.', true];
      const { message } = await agent.run(input);
      const stored = await other.load(ID, where);
      const contents = stored?.state.messages.map((m) => m.content);
      if (when === 'between runs') {
        expect(message.content).toBe(DONT_KNOW);
        expect(contents).toEqual([input, DONT_KNOW]);
        // The observer learns that the session it had is gone: a load of nothing.
        expect(events).toEqual([`load ${KEY} 0`, `save ${KEY} 2`]);
      } else if (when === 'in a tool') {
        expect(contents).toEqual([input, null, 'gone', 'vanish returned gone.']);
        expect(events).toEqual([`load ${KEY} 4`, `save ${KEY} 4`]);
      } else {
        expect(contents).toEqual([input, message.content]);
        expect(events).toEqual([`load ${KEY} 4`, `save ${KEY} 2`]);
      }
      // Created again (revision 1), and the agent's memory is what was stored.
      expect(stored?.revision).toBe(1);
      expect(agent.memory?.state).toEqual(stored?.state);

      // And the run after that does not know the old conversation either.
      const next = await agent.run("What's my name?");
      expect(next.message.content).toBe(DONT_KNOW);
      const after = await other.load(ID, where);
      expect(after?.state.messages.map((m) => m.content)).toEqual([
        ...(contents ?? []),
        "What's my name?",
        DONT_KNOW,
      ]);
      expect(after?.revision).toBe(2);
    },
  );
});

describe('what a session the store does not have starts from', () => {
  it('a memory given with content: a new session starts with it, and so does one that vanished, without what it held', async () => {
    const store = new InMemorySessionStore();
    const memory = new ConversationMemory({ maxMessages: 50, tokenizer: 'heuristic' });
    memory.add(systemMessage("The user's name is Grace."));
    const prompts: string[] = [];
    const agent = createAgent({
      provider: new LocalProvider(),
      memory,
      session: { store, id: 's1' },
      config: { systemPrompt: 'Be brief.' },
      observers: [{ onModelCall: (_run, call) => void prompts.push(call.systemPrompt) }],
    });
    // A first run on a new id keeps what the memory was given: it is the session's start.
    expect((await agent.run("What's my name?")).message.content).toBe('Your name is Grace.');
    await agent.run('My name is Ada.');
    expect((await agent.run("What's my name?")).message.content).toBe('Your name is Ada.');
    expect((await store.load('s1'))?.state.messages).toHaveLength(7);

    expect(await store.delete('s1')).toBe(true);
    // Gone: the session starts again from the memory as the first run found it.
    expect((await agent.run("What's my name?")).message.content).toBe('Your name is Grace.');
    expect((await store.load('s1'))?.state.messages.map((m) => m.content)).toEqual([
      "The user's name is Grace.",
      "What's my name?",
      'Your name is Grace.',
    ]);
    // The agent's own system prompt is not memory: every call still carries it.
    expect(prompts).toEqual(Array(4).fill('Be brief.'));
  });

  it('a session that vanished starts with the config the agent started with, not the stored one', async () => {
    const store = new InMemorySessionStore();
    const theirs = createMemory({ ...PROVIDER_SAFE, maxMessages: 6, tokenizer: 'heuristic' });
    await store.save('s1', addMessages(theirs, [userMessage('My name is Ada.')]).state);
    const agent = createAgent({ provider: new LocalProvider(), session: { store, id: 's1' } });
    await agent.run('Hello.');
    expect(agent.memory?.state.config.maxMessages).toBe(6); // the stored config wins
    await store.delete('s1');
    expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
    const mine = createMemory(PROVIDER_SAFE).config;
    expect(agent.memory?.state.config).toEqual(mine);
    expect((await store.load('s1'))?.state.config).toEqual(mine);
  });

  it.each([
    ['absent', false],
    ['stored', true],
  ])(
    'the messages of a run that threw are not saved by a later run (session %s)',
    async (_label, stored) => {
      const store = new InMemorySessionStore();
      if (stored) await store.save('s1', createMemory(PROVIDER_SAFE));
      const local = new LocalProvider();
      let fail = true;
      const agent = createAgent({
        provider: {
          name: 'flaky',
          defaultModel: 'local-1',
          complete: async (request) => {
            if (fail) throw new Error('provider down');
            return local.complete(request);
          },
        },
        session: { store, id: 's1' },
      });
      await expect(agent.run('My name is Ada.')).rejects.toThrow('provider down');
      fail = false;
      expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
      expect((await store.load('s1'))?.state.messages.map((m) => m.content)).toEqual([
        "What's my name?",
        DONT_KNOW,
      ]);
    },
  );
});
