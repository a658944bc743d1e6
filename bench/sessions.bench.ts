/**
 * Session store benchmark (run by `npm run bench`, on the built `dist/`, NODE_ENV=production):
 * save and load latency per store for sessions of 20 and 1,000 messages.
 *
 * Each store gets a session of N messages (the fixed-seed agent conversation of `fixtures.ts`,
 * the default `o200k_base` tokenizer), saved once; then 200 rounds (N = 20) or 60 rounds
 * (N = 1,000) of a conditional save (`expectedRevision`, as the agent saves) followed by a load,
 * each timed with `performance.now()`. Medians with [min–max] (2 shared, noisy cores).
 *
 * - InMemorySessionStore: keeps the state object (no serialization).
 * - JsonFileSessionStore: a temp directory on this machine's disk; every save writes a temp file,
 *   fsyncs it, renames it and fsyncs the directory, so a save costs about two fsyncs.
 * - SqliteSessionStore: a temp database file (WAL).
 * - RedisSessionStore: a redis-server started here on loopback (test/support/redisServer.ts).
 * - PostgresSessionStore: a PostgreSQL started here on loopback (test/support/postgresServer.ts,
 *   `fsync` off as for the tests), a pool of 4 connections.
 *
 * A load decodes the stored JSON and recounts every message's tokens (a stored session is checked,
 * not trusted), so it grows with N.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type * as Library from '../src/library';
import type * as NodeStores from '../src/entries/integrations/node';
import type { MemoryState, Message, SessionStore } from '../src/entries/index';
import { startPostgresServer } from '../test/support/postgresServer';
import { startRedisServer } from '../test/support/redisServer';
import { generateConversation } from './fixtures';
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

const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value.toFixed(2));
const cell = (samples: number[]): string => {
  const { median: m, min, max } = medianOf(samples);
  return `${ms(m)} ms [${ms(min)}–${ms(max)}]`.padEnd(28);
};

const pool = generateConversation(1_000);
const sessionOf = (n: number): MemoryState =>
  lib.addMessages(lib.createMemory({ maxMessages: 5_000 }), pool.slice(0, n) as Message[]).state;

const work = mkdtempSync(join(tmpdir(), 'cm-bench-sessions-'));
const redis = await startRedisServer();
const postgres = await startPostgresServer();
const pgPool = new pg.Pool({ connectionString: postgres.url, max: 4 });
pgPool.on('error', () => undefined);
const factories: [string, () => SessionStore][] = [
  ['InMemorySessionStore', () => new lib.InMemorySessionStore()],
  [
    'JsonFileSessionStore',
    () => new stores.JsonFileSessionStore({ directory: join(work, 'files') }),
  ],
  ['SqliteSessionStore', () => new stores.SqliteSessionStore({ path: join(work, 'sessions.db') })],
  ['RedisSessionStore', () => new stores.RedisSessionStore({ url: redis.url, prefix: 'bench:' })],
  ['PostgresSessionStore', () => new stores.PostgresSessionStore({ pool: pgPool })],
];

console.log(
  `\nsession stores · save (conditional) and load, o200k_base, ${useDist ? 'built dist/' : 'src/'}`,
);
console.log(`${'store'.padEnd(22)} ${'N'.padStart(5)}  ${'save'.padEnd(28)} load`);
try {
  for (const [name, make] of factories) {
    const store = make();
    try {
      for (const n of [20, 1_000]) {
        const state = sessionOf(n);
        const id = `bench-${n}`;
        let { revision } = await store.save(id, state);
        const saves: number[] = [];
        const loads: number[] = [];
        const rounds = n === 20 ? 200 : 60;
        for (let i = 0; i < rounds; i++) {
          let t0 = performance.now();
          ({ revision } = await store.save(id, state, { expectedRevision: revision }));
          saves.push(performance.now() - t0);
          t0 = performance.now();
          const loaded = await store.load(id);
          loads.push(performance.now() - t0);
          if (loaded?.state.messages.length !== n) throw new Error(`${name}: lost messages`);
        }
        console.log(`${name.padEnd(22)} ${String(n).padStart(5)}  ${cell(saves)} ${cell(loads)}`);
      }
    } finally {
      await store.close();
    }
  }
} finally {
  await redis.stop();
  await pgPool.end();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
