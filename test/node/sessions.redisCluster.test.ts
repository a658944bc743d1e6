import { createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  isConversationMemoryError,
  type SessionStore,
  StoreUnavailableError,
  userMessage,
} from 'conversation-memory';
import { compareCodePoints, sessionKeyOf } from 'conversation-memory/store-kit';
import { RedisSessionStore } from 'conversation-memory/node';
import calculateSlot from '@redis/client/dist/lib/utils/calculate-slot';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { redisKeyLayout } from '../../src/node/redis/schema';
import { startRedisCluster, type RedisTestCluster } from '../support/redisCluster';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

type Cluster = ReturnType<typeof createCluster>;

let cluster: RedisTestCluster;
let admin: Cluster;
let counter = 0;
/** A prefix of its own per store (the cluster is this file's alone). */
const freshPrefix = (): string => `cm-cluster-sessions:${++counter}:`;

const opened: RedisSessionStore[] = [];
const store = (options: Partial<ConstructorParameters<typeof RedisSessionStore>[0]> = {}) => {
  const made = new RedisSessionStore({
    cluster: { rootNodes: cluster.rootNodes },
    prefix: freshPrefix(),
    ...options,
  });
  opened.push(made);
  return made;
};

beforeAll(async () => {
  cluster = await startRedisCluster();
  admin = createCluster({ rootNodes: [...cluster.rootNodes] });
  admin.on('error', () => undefined);
  await admin.connect();
}, 60_000);

afterEach(async () => {
  for (const made of opened.splice(0)) await made.close();
});

afterAll(async () => {
  admin?.destroy();
  await cluster?.stop();
});

const hashOf = (made: SessionStore, key: string): string =>
  redisKeyLayout((made as RedisSessionStore).prefix).session(key);

const corruptMemory = async (made: SessionStore, key: string): Promise<void> => {
  await admin.hSet(hashOf(made, key), 'memory', '{"max_messages": 5, "messages": 7}');
};

sessionStoreConformance('RedisSessionStore on a Redis Cluster (its own cluster client)', {
  make: async (options) => store(options),
  corrupt: corruptMemory,
  asideCount: async (made) => (await (made as RedisSessionStore).asideKeys()).length,
});

sessionStoreConformance(
  'RedisSessionStore on a Redis Cluster (a given cluster client, minReplicas 1)',
  {
    make: async (options) =>
      store({ ...options, cluster: undefined, client: admin, minReplicas: 1 }),
    corrupt: corruptMemory,
    asideCount: async (made) => (await (made as RedisSessionStore).asideKeys()).length,
  },
);

/** Each master's `SCAN` count since the last `CONFIG RESETSTAT`. */
const scansPerMaster = async (ports: readonly number[]): Promise<number[]> =>
  Promise.all(
    ports.map(async (port) => {
      const info = (await cluster.command(port, ['INFO', 'commandstats'])) ?? '';
      return Number(/cmdstat_scan:calls=(\d+)/.exec(info)?.[1] ?? 0);
    }),
  );

describe('RedisSessionStore on a Redis Cluster: slots and SCAN', () => {
  it('keeps each session (and its aside copies) in one slot, spreads sessions over the masters, and lists each once from every master', async () => {
    const made = store();
    const ids = [
      ...Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, '0')}`),
      '{',
      '}',
      '{}',
      'a{b}c',
      '%7D',
      '}{',
    ];
    for (const id of ids) await made.save(id, sampleState([`text ${id}`]));
    for (const id of ['{}', 's07'])
      await made.save(id, sampleState(['lisbon']), { namespace: '{x}' });
    // Damaged records are moved aside by the save script: a second key, which Redis Cluster
    // accepts in one script only in the same slot.
    for (const id of ['{}', 's03', 'a{b}c']) {
      await corruptMemory(made, id);
      expect(await made.save(id, sampleState(['fresh']))).toEqual({ revision: 1 });
    }
    const aside = await made.asideKeys();
    expect(aside).toHaveLength(3);
    for (const id of ['{}', 's03', 'a{b}c']) {
      const hash = hashOf(made, id);
      const moved = aside.filter((name) => name.startsWith(hash.slice(0, -1)));
      expect(moved).toHaveLength(1);
      // The server's own slot computation agrees: one slot for the hash and its aside copy.
      expect(await cluster.slotOf(moved[0] as string)).toBe(await cluster.slotOf(hash));
      expect(calculateSlot(moved[0] as string)).toBe(calculateSlot(hash));
    }
    // The sessions spread over all three masters.
    const ownerOf = await cluster.slotOwners();
    const owners = new Set(ids.map((id) => ownerOf(calculateSlot(hashOf(made, id)))));
    expect(owners.size).toBe(3);
    // list and search walk every master, and see each session once, sorted.
    const masters = [...owners];
    for (const port of masters) await cluster.command(port, ['CONFIG', 'RESETSTAT']);
    const listed = (await made.list()).map((entry) => entry.sessionId);
    const keys = [...ids.map((id) => sessionKeyOf(id).key), '{x}:s07', '{x}:{}'];
    expect(listed).toEqual(keys.sort(compareCodePoints));
    expect((await scansPerMaster(masters)).every((calls) => calls >= 1)).toBe(true);
    expect((await made.search('lisbon', { namespace: '{x}' })).map((r) => r.sessionId)).toEqual([
      's07',
      '{}',
    ]);
  });

  it('minReplicas beyond the replicas there are: the write is applied, and says it may be lost', async () => {
    const made = store({ minReplicas: 2, commandTimeoutMs: 2_000 }); // WAIT gets half
    const error = (await rejection(made.save('s1', sampleState()))) as StoreUnavailableError;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.mayHaveWritten).toBe(true);
    expect(error.message).toContain('1 of the 2 replicas asked for (options.minReplicas)');
    expect((await made.load('s1'))?.revision).toBe(1);
  });
});

/** One writer's messages on a session: load, append, save with the revision; every failure handled. */
const appendThroughFailover = async (
  made: RedisSessionStore,
  id: string,
  text: string,
  failures: unknown[],
): Promise<void> => {
  let unknownOutcome = false;
  for (;;) {
    let loaded;
    try {
      loaded = await made.load(id);
    } catch (error) {
      failures.push(error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    // A save whose outcome was unknown: it landed or it did not; never twice.
    if (unknownOutcome && loaded?.state.messages.some((m) => m.content === text)) return;
    unknownOutcome = false;
    const base = loaded?.state ?? createMemory({ maxMessages: 10_000, tokenizer: 'heuristic' });
    try {
      await made.save(id, addMessage(base, userMessage(text)).state, {
        expectedRevision: loaded?.revision ?? 0,
      });
      return;
    } catch (error) {
      failures.push(error);
      if (error instanceof StoreUnavailableError && error.mayHaveWritten) unknownOutcome = true;
      if (error instanceof StoreUnavailableError) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
};

describe('RedisSessionStore on a Redis Cluster: a master fails over while writers save', () => {
  it('nothing lost, nothing duplicated, and every failure is one of our errors', async () => {
    const prefix = freshPrefix();
    const ids = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];
    const probe = store({ prefix });
    const victim = await cluster.masterOf(hashOf(probe, 'f0'));
    const writers = ['a', 'b', 'c'].map((name) => ({
      name,
      store: store({ prefix, minReplicas: 1, commandTimeoutMs: 1000 }),
    }));
    const failures: unknown[] = [];
    const count = 12;
    let done = 0;
    const writing = Promise.all(
      writers.map(async ({ name, store: made }) => {
        for (let i = 0; i < count; i++) {
          for (const id of ids) {
            await appendThroughFailover(made, id, `${name}:${id}:${i}`, failures);
            done++;
          }
        }
      }),
    );
    while (done < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    await cluster.kill(victim);
    // Once its replica has taken over, the dead master comes back as the new master's replica
    // (until then, minReplicas 1 cannot be met on that shard: its writes wait, then fail).
    await cluster.waitHealthy();
    await cluster.restart(victim);
    await cluster.waitHealthy();
    await writing;
    expect(await cluster.masterOf(hashOf(probe, 'f0'))).not.toBe(victim);
    for (const id of ids) {
      const texts = (await probe.load(id))?.state.messages.map((m) => m.content) ?? [];
      for (const { name } of writers) {
        // Each writer's messages, each once, in its order.
        expect(texts.filter((text) => String(text).startsWith(`${name}:`))).toEqual(
          Array.from({ length: count }, (_, i) => `${name}:${id}:${i}`),
        );
      }
      expect(texts).toHaveLength(writers.length * count);
    }
    // The failover was felt, and told with our errors only (a conflict, or the store unavailable).
    const codes = failures.map((error) =>
      isConversationMemoryError(error) ? error.code : `foreign: ${String(error)}`,
    );
    expect(codes.filter((code) => code === 'CM_STORE_UNAVAILABLE').length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(
      new Set(
        codes.filter((code) => code === 'CM_STORE_UNAVAILABLE' || code === 'CM_SESSION_CONFLICT'),
      ),
    );
    for (const error of failures.filter((e) => e instanceof StoreUnavailableError)) {
      expect((error as Error).message).toMatch(
        /^\[conversation-memory\] RedisSessionStore\.(load|save): (Redis is unreachable|the connection to Redis was lost|Redis refused the command for now|Redis did not answer in time|the Redis client failed|the write was applied)/,
      );
    }
  }, 60_000);
});
