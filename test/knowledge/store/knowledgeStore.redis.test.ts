import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from 'conversation-memory';
import { KnowledgeCorruptError, type KnowledgeStore } from 'conversation-memory/knowledge';
import { RedisKnowledgeStore } from 'conversation-memory/node';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleKnowledge } from '../../arbitraries/knowledge';
import { startRedisServer, type RedisTestServer } from '../../support/redisServer';

type Client = ReturnType<typeof createClient>;

let server: RedisTestServer;
let admin: Client;
let connected = false;
const runId = `cm-ktest:${process.pid}-${Date.now().toString(36)}`;
let counter = 0;
/** A prefix no other test (nor another run on a shared REDIS_URL) uses. */
const freshPrefix = (): string => `${runId}:${++counter}:`;

const opened: RedisKnowledgeStore[] = [];
const store = (
  prefix = freshPrefix(),
  options: { defaultTtl?: number; now?: () => number } = {},
): RedisKnowledgeStore => {
  const made = new RedisKnowledgeStore({ url: server.url, prefix, ...options });
  opened.push(made);
  return made;
};

beforeAll(async () => {
  server = await startRedisServer();
  admin = createClient({ url: server.url });
  admin.on('error', () => undefined);
  await admin.connect();
  connected = true;
}, 20_000);

afterEach(async () => {
  for (const made of opened.splice(0)) await made.close();
});

afterAll(async () => {
  if (!connected) return;
  for await (const keys of admin.scanIterator({ MATCH: `${runId}:*`, COUNT: 1000 })) {
    if (keys.length > 0) await admin.del(keys);
  }
  admin.destroy();
  await server?.stop();
});

/** The hash of a storage key (the keys of these tests need no escape). */
const hashOf = (made: KnowledgeStore, key: string): string =>
  `${(made as RedisKnowledgeStore).prefix}{${key}}k`;

knowledgeStoreConformance('RedisKnowledgeStore', {
  make: async (options) => store(freshPrefix(), options),
  sibling: async (made) => store((made as RedisKnowledgeStore).prefix),
  corrupt: async (made, key, how) => {
    const damaged = JSON.parse(JSON.stringify(sampleKnowledge())) as { nextId: number };
    damaged.nextId = 0;
    await admin.hSet(
      hashOf(made, key),
      'state',
      how === 'json' ? '{"entities": [' : JSON.stringify(damaged),
    );
  },
  asideCount: async (made) => (await (made as RedisKnowledgeStore).asideKeys()).length,
});

describe('RedisKnowledgeStore', () => {
  it('keeps one hash per record, with the state, revision and updated_at fields', async () => {
    const made = store();
    await made.save('u1', sampleKnowledge(), { namespace: 'acme' });
    const fields = await admin.hGetAll(hashOf(made, 'acme:u1'));
    expect(Object.keys(fields).sort()).toEqual(['revision', 'state', 'updated_at']);
    expect(JSON.parse(fields['state'] as string)).toEqual(sampleKnowledge());
    expect(fields['revision']).toBe('1');
  });

  it('a key of another type, or a revision that is not a number, is corrupt; a save moves it aside intact', async () => {
    const made = store();
    await admin.set(hashOf(made, 'u1'), 'not a hash');
    await expect(made.load('u1')).rejects.toBeInstanceOf(KnowledgeCorruptError);
    await made.save('u2', sampleKnowledge());
    await admin.hSet(hashOf(made, 'u2'), 'revision', 'x');
    await expect(made.load('u2')).rejects.toThrow('revision: expected an integer ≥ 1, got "x"');
    expect(await made.list()).toEqual([]);
    expect(await made.save('u1', sampleKnowledge(), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    const aside = await made.asideKeys();
    expect(aside).toHaveLength(1);
    expect(await admin.get(aside[0] as string)).toBe('not a hash');
  });

  it('a server that cannot be reached is StoreUnavailableError', async () => {
    const made = new RedisKnowledgeStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500 });
    opened.push(made);
    await expect(made.load('u1')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
