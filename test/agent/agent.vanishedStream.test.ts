/**
 * An event stream the store no longer has (deleted by another store object on the same data) is
 * never created again with what the agent's memory held of it: between runs the next run starts
 * from the empty state, and during a run the next change is made on the empty state (what the run
 * appended before the deletion was deleted with it). Issue #27, item 1. (The journal already
 * started an absent stream empty; what changed is the config a deleted stream is created again
 * with: the agent's start's, no longer the deleted stream's.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentObserver,
  type AgentTool,
  createAgent,
  createMemory,
  type EventStore,
  InMemoryEventStore,
  type MemoryAction,
  memoryActions,
  PROVIDER_SAFE,
  userMessage,
} from 'conversation-memory';
import { RedisEventStore, SqliteEventStore } from 'conversation-memory/node';
import { LocalProvider } from 'conversation-memory/testing';
import { collect } from '../stores/storeSamples';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-agent-vanished-stream-'));
let redis: RedisTestServer;
let made = 0;

beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);

afterAll(async () => {
  await redis.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const opened: EventStore[] = [];
afterEach(async () => {
  // Nothing left behind on a shared server (REDIS_URL), then the connections closed.
  for (const store of opened.splice(0)) {
    await store.delete(ID, where);
    await store.close();
  }
});

/**
 * Two store objects over the same data (the agent's, and another process's that deletes). The
 * in-memory store has no shared backing data: its one object plays both parts.
 */
const backends: [string, () => [EventStore, EventStore]][] = [
  [
    'InMemoryEventStore',
    () => {
      const store = new InMemoryEventStore();
      return [store, store];
    },
  ],
  [
    'SqliteEventStore',
    () => {
      const file = path.join(root, `events-${made++}.sqlite`);
      return [new SqliteEventStore({ path: file }), new SqliteEventStore({ path: file })];
    },
  ],
  [
    'RedisEventStore',
    () => {
      const prefix = `cm-vanished-stream-${process.pid}-${made++}:`;
      return [
        new RedisEventStore({ url: redis.url, prefix }),
        new RedisEventStore({ url: redis.url, prefix }),
      ];
    },
  ],
];

const ID = 'thread-1';
const where = { namespace: 'user-42' };
const DONT_KNOW = 'I don\'t know your name yet. Tell me with "my name is …".';

/** The contents of the messages each action of the stream added, one list per action. */
const addedByAction = async (store: EventStore): Promise<(string | null)[][]> =>
  (await collect(store.read(ID, where))).map(({ action }: { action: MemoryAction }) => {
    if (action.type === 'memory/messagesAdded') return action.payload.map((m) => m.content);
    if (action.type === 'memory/messageAdded') return [action.payload.content];
    return [action.type];
  });

describe.each(backends)('an agent whose event stream was deleted (%s)', (_name, makeStores) => {
  it.each(['between runs', 'in a tool', 'in an observer hook'])(
    'deleted %s: nothing the memory held of it is appended again',
    async (when) => {
      const [store, other] = makeStores();
      opened.push(store);
      if (other !== store) opened.push(other);
      const vanish = async () => {
        expect(await other.delete(ID, where)).toBe(true);
        expect(await other.load(ID, where)).toBeNull();
      };
      let armed = false;
      const observer: AgentObserver = {
        onModelCall: async () => {
          if (!armed) return;
          armed = false;
          await vanish();
        },
      };
      const vanishTool: AgentTool = {
        name: 'vanish',
        description: 'deletes the stream, as another process would',
        parameters: { type: 'object', properties: {} },
        execute: async () => {
          await vanish();
          return 'gone';
        },
      };
      const agent = createAgent({
        provider: new LocalProvider(),
        eventStore: { store, streamId: ID, ...where },
        tools: [vanishTool],
        observers: [observer],
      });
      await agent.run('My name is Ada.');
      expect((await agent.run("What's my name?")).message.content).toBe('Your name is Ada.');
      expect((await other.load(ID, where))?.version).toBe(4);

      let input = "What's my name?";
      if (when === 'between runs') await vanish();
      if (when === 'in a tool') input = '/call vanish {}';
      if (when === 'in an observer hook') [input, armed] = ['Hello.', true];
      const { message } = await agent.run(input);
      // Only what the run changed after the deletion: its earlier appends went with the stream.
      const expected = {
        'between runs': [[input], [DONT_KNOW]],
        'in a tool': [['gone'], ['vanish returned gone.']],
        'in an observer hook': [[message.content]],
      }[when];
      expect(await addedByAction(other)).toEqual(expected);
      if (when === 'between runs') expect(message.content).toBe(DONT_KNOW);
      const stored = await other.load(ID, where);
      expect(stored?.version).toBe(expected?.length);
      expect(agent.memory?.state).toEqual(stored?.state);

      // The run after that does not know the old conversation either.
      expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
      expect((await addedByAction(other)).slice(expected?.length)).toEqual([
        ["What's my name?"],
        [DONT_KNOW],
      ]);
    },
  );

  it('a deleted stream is created again with the config the agent started with, not the deleted one’s', async () => {
    const [store, other] = makeStores();
    opened.push(store);
    if (other !== store) opened.push(other);
    // Another writer created the stream with its own config; the stream's config wins while it exists.
    const theirs = { ...PROVIDER_SAFE, maxMessages: 6, tokenizer: 'heuristic' } as const;
    await other.append(ID, [memoryActions.messageAdded(userMessage('My name is Ada.'))], {
      ...where,
      expectedVersion: 0,
      config: theirs,
    });
    const agent = createAgent({
      provider: new LocalProvider(),
      eventStore: { store, streamId: ID, ...where },
    });
    expect((await agent.run("What's my name?")).message.content).toBe('Your name is Ada.');
    expect(agent.memory?.state.config.maxMessages).toBe(6);
    await other.delete(ID, where);
    expect((await agent.run("What's my name?")).message.content).toBe(DONT_KNOW);
    const mine = createMemory(PROVIDER_SAFE).config;
    expect((await other.load(ID, where))?.state.config).toEqual(mine);
    expect(agent.memory?.state.config).toEqual(mine);
  });
});
