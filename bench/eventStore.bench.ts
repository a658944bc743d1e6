/**
 * Event store benchmark (run by `npm run bench`, on the built `dist/`, NODE_ENV=production):
 * append latency (one action, and batches of 10) and `load` latency of a 100,000-action stream,
 * per store.
 *
 * - Append: 200 appends of one action, then 100 appends of 10 actions, to one stream (window 20),
 *   each with the expected version, as the agent appends; medians with [min–max].
 * - Load: a stream of 100,000 `messageAdded` actions (short user messages, the `heuristic`
 *   tokenizer) with a window of 20 or 1,000 messages, in a store with snapshots every 256 actions
 *   (the default: `load` reads the last snapshot and replays at most 255 actions) and one without
 *   (`snapshotEvery` larger than the stream: `load` replays all 100,000). With snapshots, 20 loads
 *   of the latest version; without, 3.
 *
 * - InMemoryEventStore: its head is kept, so a load of the latest version costs nothing; the
 *   numbers shown are `load({ atVersion: version - 1 })`, the worst case below the head.
 * - SqliteEventStore: a temp database file (WAL); every load reads and decodes the snapshot and
 *   the actions past it.
 * - RedisEventStore: a redis-server started here on loopback (test/support/redisServer.ts).
 * - PostgresEventStore: a PostgreSQL started here on loopback (test/support/postgresServer.ts,
 *   `fsync` off as for the tests), one pool, a fresh schema per store. Its appends per second
 *   beside a plain `INSERT` are in postgres.bench.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type * as Library from '../src/library';
import type * as NodeStores from '../src/entries/integrations/node';
import type { EventStore, MemoryAction } from '../src/entries/index';
import { startPostgresServer } from '../test/support/postgresServer';
import { startRedisServer } from '../test/support/redisServer';
import { medianOf } from './stats';

const useDist = process.env['BENCH_DIST'] === '1';
const lib = (
  useDist
    ? await import(new URL('../dist/library.js', import.meta.url).href)
    : await import('../src/library')
) as typeof Library;
const stores = (
  useDist
    ? await import(new URL('../dist/node.js', import.meta.url).href)
    : await import('../src/entries/integrations/node')
) as typeof NodeStores;

const STREAM_LENGTH = 100_000;
const NO_SNAPSHOTS = 1_000_000_000;

const summary = (samples: number[]): string => {
  const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value.toFixed(2));
  const { median, min, max } = medianOf(samples);
  return `${ms(median)} ms [${ms(min)}–${ms(max)}]`;
};

const said = (i: number): MemoryAction =>
  lib.memoryActions.messageAdded(lib.userMessage(`message number ${i}: a short line of chat`));

const timed = async (rounds: number, task: (round: number) => Promise<unknown>) => {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await task(round);
    samples.push(performance.now() - start);
  }
  return samples;
};

const work = mkdtempSync(join(tmpdir(), 'cm-bench-events-'));
const redis = await startRedisServer();
const postgres = await startPostgresServer();
const pgPool = new pg.Pool({ connectionString: postgres.url, max: 4 });
pgPool.on('error', () => undefined);
let files = 0;
const factories: [string, (snapshotEvery: number) => EventStore][] = [
  ['InMemoryEventStore', (snapshotEvery) => new lib.InMemoryEventStore({ snapshotEvery })],
  [
    'SqliteEventStore',
    (snapshotEvery) =>
      new stores.SqliteEventStore({ path: join(work, `events-${files++}.db`), snapshotEvery }),
  ],
  [
    'RedisEventStore',
    (snapshotEvery) =>
      new stores.RedisEventStore({
        url: redis.url,
        prefix: `bench-events-${files++}:`,
        snapshotEvery,
      }),
  ],
  [
    'PostgresEventStore',
    (snapshotEvery) =>
      new stores.PostgresEventStore({ pool: pgPool, schema: `bench_${files++}`, snapshotEvery }),
  ],
];

console.log(
  `\nevent stores · append and load, heuristic tokenizer, ${useDist ? 'built dist/' : 'src/'}`,
);
const began = performance.now();
try {
  console.log(`${'store'.padEnd(20)} ${'append 1 action'.padEnd(30)} append 10 actions`);
  for (const [name, make] of factories) {
    const store = make(256);
    const config = { maxMessages: 20, tokenizer: 'heuristic' } as const;
    let version = 0;
    await store.append('bench', [], { expectedVersion: 0, config });
    const one = await timed(200, async (round) => {
      ({ version } = await store.append('bench', [said(round)], { expectedVersion: version }));
    });
    const ten = await timed(100, async (round) => {
      const batch = Array.from({ length: 10 }, (_, i) => said(round * 10 + i));
      ({ version } = await store.append('bench', batch, { expectedVersion: version }));
    });
    console.log(`${name.padEnd(20)} ${summary(one).padEnd(30)} ${summary(ten)}`);
    await store.close();
  }

  console.log(
    `\n${'store'.padEnd(20)} ${'window'.padStart(6)}  ${'load, snapshots every 256'.padEnd(30)} load, no snapshots`,
  );
  for (const [name, make] of factories) {
    for (const window of [20, 1_000]) {
      const cells: string[] = [];
      for (const snapshotEvery of [256, NO_SNAPSHOTS]) {
        const store = make(snapshotEvery);
        const config = { maxMessages: window, tokenizer: 'heuristic' } as const;
        let version = 0;
        for (let from = 0; from < STREAM_LENGTH; from += 1_000) {
          const batch = Array.from({ length: 1_000 }, (_, i) => said(from + i));
          ({ version } = await store.append('long', batch, {
            expectedVersion: version,
            ...(version === 0 ? { config } : {}),
          }));
        }
        // InMemoryEventStore returns its head for the latest version: ask for the one before.
        const atVersion = name === 'InMemoryEventStore' ? version - 1 : undefined;
        const samples = await timed(snapshotEvery === 256 ? 20 : 3, async () => {
          const loaded = await store.load('long', { atVersion });
          if (loaded?.state.messages.length !== window) throw new Error('bad load');
        });
        cells.push(summary(samples));
        await store.close();
      }
      console.log(
        `${name.padEnd(20)} ${String(window).padStart(6)}  ${(cells[0] as string).padEnd(30)} ${cells[1] as string}`,
      );
    }
  }
} finally {
  await redis.stop();
  await pgPool.end();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(`(${((performance.now() - began) / 1000).toFixed(1)} s)`);
