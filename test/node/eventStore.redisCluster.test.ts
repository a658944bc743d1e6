import { createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  createEventLog,
  type EventStore,
  isConversationMemoryError,
  memoryActions,
  type MemoryAction,
  replay,
  type StoredAction,
  StoreUnavailableError,
} from 'conversation-memory';
import { compareCodePoints } from 'conversation-memory/store-kit';
import { RedisEventStore } from 'conversation-memory/node';
import calculateSlot from '@redis/client/dist/lib/utils/calculate-slot';
import { eventStoreConformance } from 'conversation-memory/store-kit/testing';
import { redisEventKeyLayout } from '../../src/node/redis/schema';
import { startRedisCluster, type RedisTestCluster } from '../support/redisCluster';
import { collect } from '../stores/storeSamples';
import { user } from '../helpers';
import { REWRITE_STREAM_ENTRY } from '../support/redisStreamRewrite';

type Cluster = ReturnType<typeof createCluster>;

let cluster: RedisTestCluster;
let admin: Cluster;
let counter = 0;
/** A prefix of its own per store (the cluster is this file's alone). */
const freshPrefix = (): string => `cm-cluster-events:${++counter}:`;

const opened: EventStore[] = [];
const make = (options: Partial<ConstructorParameters<typeof RedisEventStore>[0]> = {}) => {
  const store = new RedisEventStore({
    cluster: { rootNodes: cluster.rootNodes },
    prefix: freshPrefix(),
    ...options,
  });
  opened.push(store);
  return store;
};
const layoutOf = (store: EventStore) => redisEventKeyLayout((store as RedisEventStore).prefix);

beforeAll(async () => {
  cluster = await startRedisCluster();
  admin = createCluster({ rootNodes: [...cluster.rootNodes] });
  admin.on('error', () => undefined);
  await admin.connect();
}, 60_000);

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

afterAll(async () => {
  admin?.destroy();
  await cluster?.stop();
});

/** Every key matching `pattern`, from every master. */
const scanAll = async (pattern: string): Promise<string[]> => {
  const found: string[] = [];
  for (const master of admin.masters) {
    const node = await admin.nodeClient(master);
    for await (const keys of node.scanIterator({ MATCH: pattern })) found.push(...keys);
  }
  return found;
};

eventStoreConformance(
  'RedisEventStore on a Redis Cluster (its own cluster client, minReplicas 1)',
  {
    make: async (options) => make({ ...options, minReplicas: 1 }),
    dropSnapshots: async (store) => {
      for (const key of await scanAll(`${(store as RedisEventStore).prefix}{*}evs`)) {
        await admin.del(key);
      }
    },
    corruptAction: async (store, key, version, json) => {
      await admin.eval(REWRITE_STREAM_ENTRY, {
        keys: [layoutOf(store).stream(key)],
        arguments: [`${version}-0`, json],
      });
    },
    deleteAction: async (store, key, version) => {
      await admin.xDel(layoutOf(store).stream(key), `${version}-0`);
    },
    insertAction: async (store, key, version, json) => {
      await admin.xAdd(layoutOf(store).stream(key), `${version}-0`, { a: json });
    },
    copySnapshot: async (store, from, to) => {
      const state = await admin.hGet(layoutOf(store).snapshots(from.key), String(from.version));
      expect(state).toBeTypeOf('string');
      await admin.hSet(layoutOf(store).snapshots(to.key), String(to.version), state as string);
    },
  },
);

const added = (text: string): MemoryAction => memoryActions.messageAdded(user(text));
const textOf = (action: MemoryAction): string =>
  (action as { payload: { content: string } }).payload.content;
const BIG = { maxMessages: 10_000, tokenizer: 'heuristic' } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisEventStore on a Redis Cluster: slots, SCAN and a given client', () => {
  it("a stream's three keys share a slot; streams spread over the masters and are listed once", async () => {
    const store = make({ snapshotEvery: 2 });
    const ids = [...Array.from({ length: 30 }, (_, i) => `t${i}`), '{', '}', 'a{b}c'];
    for (const id of ids) {
      await store.append(id, [added('a'), added('b'), added('c')], { expectedVersion: 0 });
    }
    const layout = layoutOf(store);
    const ownerOf = await cluster.slotOwners();
    const owners = new Set<number>();
    for (const id of ids) {
      const keys = [layout.stream(id), layout.meta(id), layout.snapshots(id)];
      const slots = keys.map((key) => calculateSlot(key));
      expect(new Set(slots).size).toBe(1);
      owners.add(ownerOf(slots[0] as number));
    }
    // The server computes the same slots (for the ids with braces, say).
    for (const id of ['{', '}', 'a{b}c']) {
      const slots = await Promise.all(
        [layout.stream(id), layout.meta(id), layout.snapshots(id)].map((key) =>
          cluster.slotOf(key),
        ),
      );
      expect(slots).toEqual(Array(3).fill(calculateSlot(layout.stream(id))));
    }
    expect(owners.size).toBe(3);
    expect((await store.streams()).map((s) => s.streamId)).toEqual(
      [...ids].sort(compareCodePoints),
    );
  });

  it('a given cluster client: used as it is, duplicated for a subscription, left open by close()', async () => {
    const store = new RedisEventStore({ client: admin, prefix: freshPrefix() });
    const seen: number[] = [];
    store.subscribe('live', 0, ({ version }) => void seen.push(version));
    for (let v = 0; v < 5; v++) {
      await store.append('live', [added(`m${v}`)], { expectedVersion: v });
    }
    const deadline = Date.now() + 5000;
    while (seen.length < 5 && Date.now() < deadline) await sleep(10);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await store.close();
    expect(admin.isOpen).toBe(true);
    expect(
      (await new RedisEventStore({ client: admin, prefix: store.prefix }).load('live'))?.version,
    ).toBe(5);
  });
});

describe('RedisEventStore on a Redis Cluster: a master fails over while writers append', () => {
  it('nothing lost, nothing duplicated, every failure one of our errors; a subscription resumes without repeats', async () => {
    const prefix = freshPrefix();
    const ids = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];
    const probe = make({ prefix });
    const victim = await cluster.masterOf(layoutOf(probe).stream('f0'));
    const writers = ['a', 'b', 'c'].map((name) => ({
      name,
      store: make({ prefix, minReplicas: 1, commandTimeoutMs: 1000 }),
    }));
    // What each stream must hold: the actions whose append a writer saw succeed (or, after an
    // unknown outcome, found in the stream).
    const told = new Map(ids.map((id) => [id, [] as string[]]));
    const failures: unknown[] = [];
    /** The version each writer last saw of each stream (a conflict corrects it). */
    const known = new Map<string, number>();
    /** Appends one action, through conflicts and the failover, exactly once. */
    const append = async (store: RedisEventStore, id: string, text: string) => {
      const writer = text.slice(0, text.indexOf(':'));
      let expected = known.get(`${writer}/${id}`) ?? 0;
      for (;;) {
        try {
          ({ version: expected } = await store.append(id, [added(text)], {
            expectedVersion: expected,
            config: BIG,
          }));
          known.set(`${writer}/${id}`, expected);
          told.get(id)?.push(text);
          return;
        } catch (error) {
          failures.push(error);
          if (isConversationMemoryError(error) && error.code === 'CM_EVENT_CONFLICT') {
            expected = (error as unknown as { actualVersion: number }).actualVersion;
            continue;
          }
          if (!(error instanceof StoreUnavailableError)) throw error;
          await sleep(50);
          if (!error.mayHaveWritten) continue;
          // The append may have landed: read the stream (until it answers) to know.
          for (;;) {
            try {
              const entries = await collect(store.read(id));
              if (entries.some((entry) => textOf(entry.action) === text)) {
                told.get(id)?.push(text);
                return;
              }
              expected = entries.length;
              break;
            } catch (readError) {
              failures.push(readError);
              await sleep(50);
            }
          }
        }
      }
    };

    const seen: StoredAction[] = [];
    const subscriptionErrors: unknown[] = [];
    const unsubscribe = probe.subscribe('f0', 0, (entry) => void seen.push(entry), {
      onError: (error) => subscriptionErrors.push(error),
    });
    const count = 12;
    let done = 0;
    const writing = Promise.all(
      writers.map(async ({ name, store }) => {
        for (let i = 0; i < count; i++) {
          for (const id of ids) {
            await append(store, id, `${name}:${id}:${i}`);
            done++;
          }
        }
      }),
    );
    while (done < 20) await sleep(10);
    await cluster.kill(victim);
    // Once its replica has taken over, the dead master comes back as the new master's replica.
    await cluster.waitHealthy();
    await cluster.restart(victim);
    await cluster.waitHealthy();
    await writing;
    expect(await cluster.masterOf(layoutOf(probe).stream('f0'))).not.toBe(victim);

    for (const id of ids) {
      const entries = await collect(probe.read(id));
      const texts = entries.map((entry) => textOf(entry.action));
      // Exactly what the writers were told, each once; each writer's in its order.
      expect([...texts].sort()).toEqual([...(told.get(id) ?? [])].sort());
      for (const { name } of writers) {
        expect(texts.filter((text) => text.startsWith(`${name}:`))).toEqual(
          Array.from({ length: count }, (_, i) => `${name}:${id}:${i}`),
        );
      }
      expect((await probe.load(id))?.state).toEqual(
        replay(entries.map((e) => e.action).reduce(appendAction, createEventLog(BIG))),
      );
    }
    // The subscription on the failed master's stream reconnected and resumed: every action once,
    // in order.
    const final = await collect(probe.read('f0'));
    const deadline = Date.now() + 10_000;
    while (seen.length < final.length && Date.now() < deadline) await sleep(20);
    await unsubscribe();
    expect(seen).toEqual(final);
    expect(subscriptionErrors.length).toBeGreaterThan(0);
    // The failover was felt, and told with our errors only.
    const codes = [...failures, ...subscriptionErrors].map((error) =>
      isConversationMemoryError(error) ? error.code : `foreign: ${String(error)}`,
    );
    expect(codes).toContain('CM_STORE_UNAVAILABLE');
    expect(
      codes.filter((code) => code !== 'CM_STORE_UNAVAILABLE' && code !== 'CM_EVENT_CONFLICT'),
    ).toEqual([]);
    for (const error of [...failures, ...subscriptionErrors]) {
      if (error instanceof StoreUnavailableError) {
        expect(error.message).toMatch(
          /^\[conversation-memory\] RedisEventStore\.(append|read|streams|subscribe): (Redis is unreachable|the connection to Redis was lost|Redis refused the command for now|Redis did not answer in time|the Redis client failed|the write was applied)/,
        );
      }
    }
  }, 60_000);
});
