import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKnowledge } from 'conversation-memory/knowledge';
import { RedisEventStore, RedisKnowledgeStore, RedisSessionStore } from 'conversation-memory/node';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { memoryActions, type RemovedCount } from 'conversation-memory';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';
import { type MonitoredCommand, monitored } from '../support/redisMonitor';
import { sampleState } from '../stores/storeSamples';
import { manualClock } from '../stores/suiteHelpers';
import { user } from '../helpers';

/**
 * What only the Redis stores can get wrong in `sweep` and `deleteNamespace` (issue #30): that a
 * large sweep or erasure holds the server for one record at a time, never for all of it (seen
 * with MONITOR on a server of this file's own), and how their keys expire in Redis.
 */

type Client = ReturnType<typeof createClient>;

let server: RedisTestServer;
let admin: Client;
let counter = 0;
const freshPrefix = (): string => `cm-retention:${++counter}:`;
const opened: { close(): Promise<void> }[] = [];
const kept = <T extends { close(): Promise<void> }>(store: T): T => {
  opened.push(store);
  return store;
};

beforeAll(async () => {
  // Its own server: MONITOR must see no other file's commands.
  server = await startRedisServer({ own: true });
  admin = createClient({ url: server.url });
  admin.on('error', () => undefined);
  await admin.connect();
}, 20_000);

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

afterAll(async () => {
  admin?.destroy();
  await server?.stop();
});

/** More records than three batches. */
const MANY = 3 * SWEEP_BATCH + 1;

/** Runs `write(i)` for i < n, 100 at a time. */
const writeMany = async (n: number, write: (i: number) => Promise<unknown>): Promise<void> => {
  for (let start = 0; start < n; start += 100) {
    await Promise.all(Array.from({ length: Math.min(100, n - start) }, (_, i) => write(start + i)));
  }
};

/** Every key under `prefix`. */
const keysUnder = async (prefix: string): Promise<string[]> => {
  const found: string[] = [];
  for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    found.push(...keys);
  }
  return found.sort();
};

const isScript = (command: MonitoredCommand): boolean =>
  ['EVAL', 'EVALSHA'].includes((command.args[0] ?? '').toUpperCase());

/** One removal of MANY records, prepared: the call, and what it must leave under the prefix. */
interface Prepared {
  readonly run: () => Promise<RemovedCount>;
  readonly left: readonly string[];
}

const added = memoryActions.messageAdded(user('hello'));

const cases: readonly (readonly [string, (prefix: string) => Promise<Prepared>])[] = [
  [
    'RedisSessionStore.sweep',
    async (prefix) => {
      const clock = manualClock();
      const store = kept(
        new RedisSessionStore({ url: server.url, prefix, defaultTtl: 60, now: clock.now }),
      );
      await writeMany(MANY, (i) => store.save(`s${i}`, sampleState(), { namespace: 'a' }));
      clock.advance(30);
      await store.save('fresh', sampleState());
      clock.advance(31);
      return { run: () => store.sweep(), left: [`${prefix}{fresh}s`] };
    },
  ],
  [
    'RedisEventStore.sweep',
    async (prefix) => {
      const clock = manualClock();
      const store = kept(
        new RedisEventStore({ url: server.url, prefix, defaultTtl: 60, now: clock.now }),
      );
      await writeMany(MANY, (i) => store.append(`t${i}`, [added], { expectedVersion: 0 }));
      clock.advance(30);
      await store.append('fresh', [added], { expectedVersion: 0 });
      clock.advance(31);
      return { run: () => store.sweep(), left: [`${prefix}{fresh}ev`, `${prefix}{fresh}evc`] };
    },
  ],
  [
    'RedisKnowledgeStore.sweep',
    async (prefix) => {
      const clock = manualClock();
      const store = kept(
        new RedisKnowledgeStore({ url: server.url, prefix, defaultTtl: 60, now: clock.now }),
      );
      await writeMany(MANY, (i) => store.save(`k${i}`, createKnowledge()));
      clock.advance(61);
      return { run: () => store.sweep(), left: [] };
    },
  ],
  [
    'RedisEventStore.deleteNamespace',
    async (prefix) => {
      const store = kept(new RedisEventStore({ url: server.url, prefix, snapshotEvery: 2 }));
      await writeMany(MANY, (i) =>
        store.append(`t${i}`, [added, added], { expectedVersion: 0, namespace: 'a' }),
      );
      await store.append('t0', [added], { expectedVersion: 0, namespace: 'b' });
      return {
        run: () => store.deleteNamespace('a'),
        left: [`${prefix}{b:t0}ev`, `${prefix}{b:t0}evc`],
      };
    },
  ],
  [
    'RedisSessionStore.deleteNamespace',
    async (prefix) => {
      const store = kept(new RedisSessionStore({ url: server.url, prefix }));
      await writeMany(MANY, (i) => store.save(`s${i}`, sampleState(), { namespace: 'a' }));
      await store.save('s0', sampleState(), { namespace: 'a:b' });
      return { run: () => store.deleteNamespace('a'), left: [`${prefix}{a%253Ab:s0}s`] };
    },
  ],
];

describe('Redis stores: sweep and deleteNamespace hold the server for one record at a time', () => {
  it.each(cases)(
    `%s of ${MANY} records: SCAN pages (never KEYS), one short script or DEL per record, other clients served between them`,
    async (_, prepare) => {
      const prefix = freshPrefix();
      const { run, left } = await prepare(prefix);
      const marker = `tick:${prefix}`;
      const { result, commands } = await monitored(server.url, marker, run);
      expect(result).toEqual({ removed: MANY });
      expect(await keysUnder(prefix)).toEqual([...left].sort());

      const ours = commands.filter(
        (c) => c.from !== 'lua' && c.args.some((arg) => arg.includes(prefix)),
      );
      const names = ours.map((c) => (c.args[0] ?? '').toUpperCase());
      expect(names).not.toContain('KEYS');
      expect(names).toContain('SCAN');
      for (const scan of ours.filter((c) => (c.args[0] ?? '').toUpperCase() === 'SCAN')) {
        const count = scan.args.findIndex((arg) => arg.toUpperCase() === 'COUNT');
        expect(count).toBeGreaterThan(0);
        expect(Number(scan.args[count + 1])).toBeLessThanOrEqual(SWEEP_BATCH);
      }
      // Each script is about one record: one key, or the three keys of one stream.
      for (const script of ours.filter(isScript))
        expect(Number(script.args[2])).toBeLessThanOrEqual(3);
      // No script runs long: the commands a script runs itself come in short runs.
      let inScript = 0;
      let longest = 0;
      for (const command of commands) {
        inScript = command.from === 'lua' ? inScript + 1 : 0;
        longest = Math.max(longest, inScript);
      }
      expect(longest).toBeLessThan(SWEEP_BATCH);
      // Another client's commands ran between the removal's first write and its last.
      const writes = commands.flatMap((c, i) =>
        ours.includes(c) && (isScript(c) || (c.args[0] ?? '').toUpperCase() === 'DEL') ? [i] : [],
      );
      expect(writes.length).toBeGreaterThanOrEqual(MANY);
      const [first, last] = [writes[0] as number, writes.at(-1) as number];
      const between = commands
        .slice(first, last)
        .filter((c) => c.args[0]?.toUpperCase() === 'ECHO' && c.args[1] === marker);
      expect(between.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
