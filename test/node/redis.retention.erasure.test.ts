import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  EventConflictError,
  EventCorruptError,
  memoryActions,
  type MemoryAction,
  type MemoryOptions,
  replay,
  seek,
} from 'conversation-memory';
import { createKnowledge } from 'conversation-memory/knowledge';
import { sessionKeyOf } from 'conversation-memory/store-kit';
import { RedisEventStore, RedisKnowledgeStore, RedisSessionStore } from 'conversation-memory/node';
import { PRUNE_SCRIPT } from '../../src/node/redis/eventRetentionScripts';
import { redisEventKeyLayout, redisHashTag } from '../../src/node/redis/schema';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';
import { CONFIG, collect, sampleState } from '../stores/storeSamples';
import { rejection, user } from '../helpers';

/**
 * What only the Redis stores can get wrong in erasure and pruning (issue #30): every key of a
 * namespace goes (aside copies, a stream's three keys, damaged leftovers) and no other key
 * changes; a writer racing `deleteNamespace` never brings old data back; `prune` is one script,
 * so a failing snapshot write cuts nothing, and a stream re-created meanwhile never gets the old
 * snapshot; a stream's keys share one Redis expiry; a keyspace of the released layout still works.
 */

type Client = ReturnType<typeof createClient>;

let server: RedisTestServer;
let admin: Client;
let connected = false;
const runId = `cm-erasure:${process.pid}-${Date.now().toString(36)}`;
let counter = 0;
const freshPrefix = (): string => `${runId}:${++counter}:`;
const opened: { close(): Promise<void> }[] = [];
const kept = <T extends { close(): Promise<void> }>(store: T): T => {
  opened.push(store);
  return store;
};

beforeAll(async () => {
  server = await startRedisServer();
  admin = createClient({ url: server.url });
  admin.on('error', () => undefined);
  await admin.connect();
  connected = true;
}, 20_000);

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

afterAll(async () => {
  if (!connected) return;
  for await (const keys of admin.scanIterator({ MATCH: `${runId}:*`, COUNT: 1000 })) {
    if (keys.length > 0) await admin.del(keys);
  }
  admin.destroy();
  await server?.stop();
});

const added = (text: string): MemoryAction => memoryActions.messageAdded(user(text));
const texts = (prefix: string, n: number): MemoryAction[] =>
  Array.from({ length: n }, (_, i) => added(`${prefix} ${i}`));
const logOf = (actions: readonly MemoryAction[], config: MemoryOptions = CONFIG) =>
  actions.reduce(appendAction, createEventLog(config));

/** Every key under `prefix` with its DUMP (type, value and encoding) and whether it expires. */
const snapshotKeys = async (prefix: string): Promise<Map<string, string>> => {
  const out = new Map<string, string>();
  for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    for (const key of keys) {
      const dump = (await admin.sendCommand(['DUMP', key])) as string;
      const ttl = await admin.pTTL(key);
      out.set(
        key,
        `${Buffer.from(dump, 'binary').toString('base64')} ttl:${ttl > 0 ? 'yes' : ttl}`,
      );
    }
  }
  return out;
};

/** A node-redis client that runs `before` once, just before the store sends script `sha`. */
const beforeScript = (client: Client, sha: string, before: () => Promise<void>) => {
  let armed = true;
  return {
    sendCommand: async (args: readonly string[], options?: object) => {
      if (armed && args[0] === 'EVALSHA' && args[1] === sha) {
        armed = false;
        await before();
      }
      return client.sendCommand([...args], options as never);
    },
  };
};

/** A node-redis client whose every reply comes `ms` late (a slow network, a busy client). */
const slowed = (client: Client, ms: number) => ({
  sendCommand: async (args: readonly string[], options?: object) => {
    const reply = await client.sendCommand([...args], options as never);
    await sleep(ms);
    return reply;
  },
});

const connectedClient = async (): Promise<Client> => {
  const options: Parameters<typeof createClient>[0] = { url: server.url };
  const client = createClient(options);
  client.on('error', () => undefined);
  await client.connect();
  opened.push({ close: async () => client.destroy() });
  return client;
};

describe('Redis stores: deleteNamespace removes every key of the namespace and changes no other', () => {
  it('sessions, streams and knowledge under one prefix: records, aside copies, snapshots, damaged leftovers of namespace a go; a:b, ab, a%3Ab and no namespace stay byte for byte', async () => {
    const prefix = freshPrefix();
    const sessions = kept(new RedisSessionStore({ url: server.url, prefix }));
    const events = kept(new RedisEventStore({ url: server.url, prefix, snapshotEvery: 2 }));
    const knowledge = kept(new RedisKnowledgeStore({ url: server.url, prefix }));
    const namespaces = ['a', 'a:b', 'ab', 'a%3Ab', undefined];
    for (const namespace of namespaces) {
      for (const id of ['s', 'a:s', 'x%3Ay']) {
        await sessions.save(id, sampleState([id]), { namespace });
        await events.append(id, texts(id, 5), { expectedVersion: 0, namespace, config: CONFIG });
        await knowledge.save(id, createKnowledge(), { namespace });
      }
      await events.prune('s', { before: 3, namespace });
      // Damaged records, saved over: the stores keep the damaged copies aside.
      const tag = (id: string) => redisHashTag(sessionKeyOf(id, { namespace }).key);
      await admin.hSet(`${prefix}{${tag('s')}}s`, 'memory', '{"messages": 1}');
      await sessions.save('s', sampleState(['again']), { namespace });
      await admin.hSet(`${prefix}{${tag('s')}}k`, 'state', '{"entities": [');
      await knowledge.save('s', createKnowledge(), { namespace });
      // A stream's leftover without its config (damaged), and a snapshots key alone.
      await admin.xAdd(`${prefix}{${tag('lost')}}ev`, '1-0', { a: '{}' });
      await admin.hSet(`${prefix}{${tag('orphan')}}evs`, '2', '{}');
    }
    const before = await snapshotKeys(prefix);
    const ofA = (key: string) => key.startsWith(`${prefix}{a:`);
    expect([...before.keys()].filter(ofA).length).toBeGreaterThan(15);
    expect([...before.keys()].filter(ofA).some((key) => key.includes('}corrupt:'))).toBe(true);
    expect([...before.keys()].filter(ofA).some((key) => key.includes('}kcorrupt:'))).toBe(true);

    expect(await sessions.deleteNamespace('a')).toEqual({ removed: 3 });
    expect(await knowledge.deleteNamespace('a')).toEqual({ removed: 3 });
    // The three streams, and the damaged one without a config.
    expect(await events.deleteNamespace('a')).toEqual({ removed: 4 });

    const after = await snapshotKeys(prefix);
    expect([...after.keys()].filter(ofA)).toEqual([]);
    expect(after).toEqual(new Map([...before].filter(([key]) => !ofA(key))));
  });
});

describe('RedisEventStore: a writer racing deleteNamespace', () => {
  it('never brings back what was there: after it, every stream of the namespace is absent or new (created after the erasure began), whole, with none of the old actions or snapshots', async () => {
    const prefix = freshPrefix();
    // The store's clock tells on which side of the erasure a stream was created.
    let phase = 1_000;
    const now = () => phase;
    const writer = kept(new RedisEventStore({ url: server.url, prefix, snapshotEvery: 3, now }));
    // An eraser on a slow line: whatever it does in more than one command, writers get between.
    const eraser = kept(
      new RedisEventStore({ client: slowed(await connectedClient(), 2), prefix, now }),
    );
    const ids = Array.from({ length: 40 }, (_, i) => `t${i}`);
    for (const id of ids) {
      await writer.append(id, texts(`${id} old`, 5), { expectedVersion: 0, namespace: 'a' });
    }
    await writer.append('t0', texts('other', 2), { expectedVersion: 0, namespace: 'b' });
    let going = true;
    const errors: unknown[] = [];
    const writing = ids.map(async (id) => {
      let version = 5;
      for (let n = 0; going; n++) {
        const action = added(`${id} ${phase} ${n}`);
        try {
          const options = { expectedVersion: version, namespace: 'a' };
          version = (await writer.append(id, [action], options)).version;
        } catch (error) {
          if (!(error instanceof EventConflictError)) {
            errors.push(error);
            return;
          }
          version = error.actualVersion;
        }
      }
    });
    await sleep(30);
    phase = 2_000;
    const { removed } = await eraser.deleteNamespace('a');
    await sleep(30);
    going = false;
    await Promise.all(writing);
    expect(errors).toEqual([]);
    expect(removed).toBeGreaterThanOrEqual(ids.length);
    const listed = await eraser.streams({ namespace: 'a' });
    for (const info of listed) expect(info.createdAt).toBe(2_000);
    for (const id of ids) {
      const loaded = await eraser.load(id, { namespace: 'a' });
      const actions = (await collect(eraser.read(id, { namespace: 'a' }))).map((e) => e.action);
      if (loaded === null) {
        expect(actions).toEqual([]);
        continue;
      }
      for (const action of actions) {
        expect((action as { payload: { content: string } }).payload.content).toMatch(/ 2000 /);
      }
      expect(loaded).toEqual({
        state: replay(logOf(actions, {})),
        version: actions.length,
      });
    }
    expect((await collect(eraser.read('t0', { namespace: 'b' }))).length).toBe(2);
  }, 30_000);
});

describe('RedisEventStore.prune: one script', () => {
  it('a snapshot write that fails cuts nothing: the stream stays whole, its damaged snapshots key as it was', async () => {
    const prefix = freshPrefix();
    const layout = redisEventKeyLayout(prefix);
    const client = await connectedClient();
    const snaps = layout.snapshots('s1');
    const store = kept(
      new RedisEventStore({
        client: beforeScript(client, PRUNE_SCRIPT.sha, async () => {
          // The snapshots key becomes something a snapshot cannot be written to.
          await admin.del(snaps);
          await admin.set(snaps, 'not a hash');
        }),
        prefix,
        snapshotEvery: 4,
      }),
    );
    const actions = texts('m', 10);
    await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    const read = await collect(store.read('s1'));
    const meta = await admin.hGetAll(layout.meta('s1'));
    const error = await rejection(store.prune('s1', { before: 6 }));
    expect(await admin.xLen(layout.stream('s1'))).toBe(10);
    expect(await admin.hGetAll(layout.meta('s1'))).toEqual(meta);
    expect(await admin.get(snaps)).toBe('not a hash');
    expect(await collect(store.read('s1'))).toEqual(read);
    expect(await store.load('s1', { atVersion: 3 })).toEqual({
      state: seek(logOf(actions), 3),
      version: 3,
    });
    // Refused as a damaged stream, before anything was written.
    expect(error).toBeInstanceOf(EventCorruptError);
    expect((error as Error).message).toContain('the snapshots key is a string');
  });

  it('a stream deleted and created again between the replay and the write never gets the old snapshot', async () => {
    const prefix = freshPrefix();
    const client = await connectedClient();
    const other = kept(new RedisEventStore({ url: server.url, prefix }));
    const fresh = texts('new', 12);
    const freshConfig = { ...CONFIG, maxMessages: 50 };
    const store = kept(
      new RedisEventStore({
        client: beforeScript(client, PRUNE_SCRIPT.sha, async () => {
          await other.delete('s1');
          await other.append('s1', fresh, { expectedVersion: 0, config: freshConfig });
        }),
        prefix,
        snapshotEvery: 4,
      }),
    );
    await store.append('s1', texts('old', 10), { expectedVersion: 0, config: CONFIG });
    expect(await store.prune('s1', { before: 6 })).toEqual({ removed: 5 });
    const log = logOf(fresh, freshConfig);
    for (const atVersion of [6, 7, 12]) {
      expect(await store.load('s1', { atVersion })).toEqual({
        state: seek(log, atVersion),
        version: atVersion,
      });
    }
    expect((await collect(store.read('s1', { fromVersion: 6 }))).map((e) => e.action)).toEqual(
      fresh.slice(5),
    );
  });
});

describe('Redis stores: expiry in Redis', () => {
  const pExpireTime = async (key: string): Promise<number> =>
    Number(await admin.sendCommand(['PEXPIRETIME', key]));

  it('a stream’s three keys share one Redis expiry deadline (the TTL plus the margin), also when a snapshot or a prune creates the snapshots key later; a store without a TTL removes it', async () => {
    const prefix = freshPrefix();
    const layout = redisEventKeyLayout(prefix);
    const keys = ['s1', 's2'].map((id) => [
      layout.stream(id),
      layout.meta(id),
      layout.snapshots(id),
    ]);
    const store = kept(
      new RedisEventStore({ url: server.url, prefix, snapshotEvery: 4, defaultTtl: 3_600 }),
    );
    await store.append('s1', texts('a', 2), { expectedVersion: 0 });
    await store.append('s1', texts('b', 3), { expectedVersion: 2 });
    await store.append('s2', texts('c', 3), { expectedVersion: 0 });
    await store.prune('s2', { before: 3 });
    for (const [stream, meta, snaps] of keys as [string, string, string][]) {
      expect(await admin.exists(snaps)).toBe(1);
      const deadline = await pExpireTime(meta);
      expect(await pExpireTime(stream)).toBe(deadline);
      expect(await pExpireTime(snaps)).toBe(deadline);
      expect(await admin.pTTL(meta)).toBeGreaterThan((3_600 + 300 - 60) * 1000);
      expect(await admin.pTTL(meta)).toBeLessThanOrEqual((3_600 + 300) * 1000);
    }
    const forever = kept(new RedisEventStore({ url: server.url, prefix }));
    await forever.append('s1', texts('d', 1), { expectedVersion: 5 });
    for (const key of keys[0] as string[]) expect(await admin.pTTL(key)).toBe(-1);
  });

  it('a knowledge record saved with a TTL expires in Redis (the TTL plus the margin); saved again without, it does not', async () => {
    const prefix = freshPrefix();
    const store = kept(new RedisKnowledgeStore({ url: server.url, prefix, defaultTtl: 60 }));
    await store.save('u1', createKnowledge());
    const ttl = await admin.ttl(`${prefix}{u1}k`);
    expect(ttl).toBeGreaterThan(300);
    expect(ttl).toBeLessThanOrEqual(360);
    await kept(new RedisKnowledgeStore({ url: server.url, prefix })).save('u1', createKnowledge());
    expect(await admin.ttl(`${prefix}{u1}k`)).toBe(-1);
  });

  it('a stream of the released layout (no updated_at, no first) reads, appends and prunes; a TTL store keeps it until its next append', async () => {
    const prefix = freshPrefix();
    const layout = redisEventKeyLayout(prefix);
    const clock = { now: 1_000 };
    const now = () => clock.now;
    const old = kept(new RedisEventStore({ url: server.url, prefix, snapshotEvery: 4, now }));
    const actions = texts('m', 6);
    await old.append('s1', actions, { expectedVersion: 0, config: CONFIG });
    await admin.hDel(layout.meta('s1'), 'updated_at');
    expect(Object.keys(await admin.hGetAll(layout.meta('s1'))).sort()).toEqual([
      'config',
      'created_at',
      'incarnation',
    ]);
    const store = kept(
      new RedisEventStore({ url: server.url, prefix, snapshotEvery: 4, defaultTtl: 60, now }),
    );
    clock.now += 1e6;
    expect(await store.load('s1')).toEqual({ state: replay(logOf(actions)), version: 6 });
    expect((await store.streams()).map((info) => info.streamId)).toEqual(['s1']);
    expect(await store.sweep()).toEqual({ removed: 0 });
    expect(await store.prune('s1', { before: 3 })).toEqual({ removed: 2 });
    expect(await store.append('s1', texts('n', 1), { expectedVersion: 6 })).toEqual({ version: 7 });
    clock.now += 61;
    expect(await store.load('s1')).toBeNull();
    expect(await store.sweep()).toEqual({ removed: 1 });
  });
});
