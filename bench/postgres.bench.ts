/**
 * PostgresEventStore benchmark (run by `npm run bench`, on the built `dist/`, NODE_ENV=production):
 * appends per second beside a plain `INSERT` of the same rows through `pg` in the same run (the
 * floor), on a PostgreSQL started here on loopback (test/support/postgresServer.ts: `fsync` off,
 * as for the tests; the store and the floor share the server, so the ratio is fair).
 *
 * - 1 writer: 200 appends of one action to one stream, each with the expected version; the floor
 *   is one `INSERT` of one row per action (the action's JSON into a plain table keyed by
 *   `(stream, version)`).
 * - 8 writers, 8 streams: 8 streams appended at once (50 one-action appends each, each with its
 *   expected version) on one pool of 10 connections; the floor is 8 loops of `INSERT` at once.
 * - 8 writers, one stream: the same 8 writers on ONE stream, retrying on `EventConflictError` with
 *   the version it reports; actions/s of what was written, and the conflicts.
 * - Batched: 20 appends of 100 actions (snapshots every 256, so a batch that reaches one reads
 *   the stream's state first); the floor is one multi-row `INSERT` of 100 rows a call.
 *
 * After an untimed warm-up (2,000 appends and 2,000 plain inserts: Node's JIT and the server's
 * caches), each measure runs 5 rounds, the store's and the floor's rounds alternating (so both
 * see the same load of this shared machine); medians of actions/s with [min–max]. Ratios are of the medians.
 * Goals (issue #30): a single writer's appends ≥ 50% of the plain insert rate; batched appends
 * ≥ 10,000 actions/s. The load of a 100,000-action stream is in eventStore.bench.ts, beside the
 * other stores.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type * as Library from '../src/library';
import type * as NodeStores from '../src/entries/integrations/node';
import type { EventStore, MemoryAction } from '../src/entries/index';
import { startPostgresServer } from '../test/support/postgresServer';
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

const ROUNDS = 5;
const WARM_UP = 2_000;
const WRITERS = 8;
const config = { maxMessages: 20, tokenizer: 'heuristic' } as const;

const said = (i: number): MemoryAction =>
  lib.memoryActions.messageAdded(lib.userMessage(`message number ${i}: a short line of chat`));

const rate = (actions: number, ms: number): number => (actions * 1000) / ms;
const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const cell = (rates: number[]): string => {
  const { median, min, max } = medianOf(rates);
  return `${int(median)}/s [${int(min)}–${int(max)}]`;
};

/** Runs `task` and returns actions/s. */
const measure = async (actions: number, task: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await task();
  return rate(actions, performance.now() - start);
};

const server = await startPostgresServer();
const pool = new pg.Pool({ connectionString: server.url, max: WRITERS + 2 });
pool.on('error', () => undefined);
let names = 0;
const freshStore = (): EventStore =>
  new stores.PostgresEventStore({ pool, schema: `bench_events_${++names}`, snapshotEvery: 256 });

/** The floor's table: the same JSON into a plain table with a (stream, version) primary key. */
const freshTable = async (): Promise<string> => {
  const table = `bench_plain.actions_${++names}`;
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench_plain');
  await pool.query(
    `CREATE TABLE ${table} (stream text NOT NULL, version bigint NOT NULL, action_json text NOT NULL, PRIMARY KEY (stream, version))`,
  );
  return table;
};

/** `count` one-action appends to `stream`, each with the expected version. */
const appendOneByOne = async (store: EventStore, stream: string, from: number, count: number) => {
  let version = (await store.append(stream, [], { expectedVersion: 0, config })).version;
  for (let i = 0; i < count; i++) {
    ({ version } = await store.append(stream, [said(from + i)], { expectedVersion: version }));
  }
};

/** `count` single-row INSERTs into `table` for `stream`. */
const insertOneByOne = async (table: string, stream: string, from: number, count: number) => {
  for (let i = 0; i < count; i++) {
    await pool.query(`INSERT INTO ${table} (stream, version, action_json) VALUES ($1, $2, $3)`, [
      stream,
      i + 1,
      JSON.stringify(said(from + i)),
    ]);
  }
};

/** Appends `count` actions to ONE stream, retrying on conflict; returns the conflicts met. */
const appendWithRetry = async (store: EventStore, stream: string, from: number, count: number) => {
  let version = 0;
  let conflicts = 0;
  for (let i = 0; i < count;) {
    try {
      ({ version } = await store.append(stream, [said(from + i)], {
        expectedVersion: version,
        ...(version === 0 ? { config } : {}),
      }));
      i++;
    } catch (error) {
      // The error's code, not `instanceof`: dist/node.js has its own copy of the class.
      const conflict = error as { code?: unknown; actualVersion?: number };
      if (conflict.code !== 'CM_EVENT_CONFLICT' || conflict.actualVersion === undefined)
        throw error;
      conflicts++;
      version = conflict.actualVersion;
    }
  }
  return conflicts;
};

const BATCH = 100;
const BATCHES = 20;

const appendBatches = async (store: EventStore, stream: string) => {
  let version = (await store.append(stream, [], { expectedVersion: 0, config })).version;
  for (let b = 0; b < BATCHES; b++) {
    const batch = Array.from({ length: BATCH }, (_, i) => said(b * BATCH + i));
    ({ version } = await store.append(stream, batch, { expectedVersion: version }));
  }
};

const insertBatches = async (table: string, stream: string) => {
  for (let b = 0; b < BATCHES; b++) {
    const versions = Array.from({ length: BATCH }, (_, i) => b * BATCH + i + 1);
    const json = versions.map((v) => JSON.stringify(said(v - 1)));
    await pool.query(
      `INSERT INTO ${table} (stream, version, action_json) SELECT $1, v, j FROM unnest($2::bigint[], $3::text[]) AS r(v, j)`,
      [stream, versions, json],
    );
  }
};

console.log(
  `\nPostgresEventStore · appends/s beside a plain INSERT (the floor), heuristic tokenizer, ${useDist ? 'built dist/' : 'src/'}`,
);
const began = performance.now();
try {
  const single = { store: [] as number[], floor: [] as number[] };
  const eight = { store: [] as number[], floor: [] as number[] };
  const oneStream = { store: [] as number[], conflicts: [] as number[] };
  const batched = { store: [] as number[], floor: [] as number[] };
  // Warm-up, untimed: Node's JIT and the server's caches, for the store and the floor alike.
  const warmStore = freshStore();
  const warmTable = await freshTable();
  await appendOneByOne(warmStore, 'warm-up', 0, WARM_UP);
  await insertOneByOne(warmTable, 'warm-up', 0, WARM_UP);
  await warmStore.close();
  for (let round = 0; round < ROUNDS; round++) {
    const store = freshStore();
    const table = await freshTable();
    await store.append('warm-up', [said(0)], { expectedVersion: 0, config });

    single.store.push(await measure(200, () => appendOneByOne(store, `one-${round}`, 0, 200)));
    single.floor.push(await measure(200, () => insertOneByOne(table, `one-${round}`, 0, 200)));

    const streams = Array.from({ length: WRITERS }, (_, w) => `eight-${round}-${w}`);
    eight.store.push(
      await measure(WRITERS * 50, () =>
        Promise.all(streams.map((stream, w) => appendOneByOne(store, stream, w * 50, 50))),
      ),
    );
    eight.floor.push(
      await measure(WRITERS * 50, () =>
        Promise.all(streams.map((stream, w) => insertOneByOne(table, stream, w * 50, 50))),
      ),
    );

    let conflicts = 0;
    oneStream.store.push(
      await measure(WRITERS * 25, async () => {
        const met = await Promise.all(
          streams.map((_, w) => appendWithRetry(store, `shared-${round}`, w * 25, 25)),
        );
        conflicts = met.reduce((sum, n) => sum + n, 0);
      }),
    );
    oneStream.conflicts.push(conflicts);
    const shared = await store.load(`shared-${round}`);
    if (shared?.version !== WRITERS * 25) throw new Error(`shared stream at ${shared?.version}`);

    batched.store.push(await measure(BATCH * BATCHES, () => appendBatches(store, `b-${round}`)));
    batched.floor.push(await measure(BATCH * BATCHES, () => insertBatches(table, `b-${round}`)));
    await store.close();
  }

  const ratio = (m: { store: number[]; floor: number[] }): number =>
    medianOf(m.store).median / medianOf(m.floor).median;
  const w = 34;
  console.log(
    `${'measure'.padEnd(w)} ${'PostgresEventStore'.padEnd(30)} ${'plain INSERT'.padEnd(30)} store/floor`,
  );
  const line = (name: string, m: { store: number[]; floor: number[] }) =>
    console.log(
      `${name.padEnd(w)} ${cell(m.store).padEnd(30)} ${cell(m.floor).padEnd(30)} ${(ratio(m) * 100).toFixed(0)}%`,
    );
  line('1 writer, 1 action a call', single);
  line(`${WRITERS} writers, ${WRITERS} streams`, eight);
  console.log(
    `${`${WRITERS} writers, 1 stream, retry`.padEnd(w)} ${cell(oneStream.store).padEnd(30)} ` +
      `conflicts per ${WRITERS * 25} appends: median ${medianOf(oneStream.conflicts).median}`,
  );
  line(`batched, ${BATCH} actions a call`, batched);

  const singleRatio = ratio(single);
  const batchedRate = medianOf(batched.store).median;
  console.log(
    `goal: 1 writer ≥ 50% of the plain insert rate: ${(singleRatio * 100).toFixed(0)}% ` +
      `(${singleRatio >= 0.5 ? 'PASS' : 'FAIL'})`,
  );
  console.log(
    `goal: batched appends ≥ 10,000 actions/s: ${int(batchedRate)}/s ` +
      `(${batchedRate >= 10_000 ? 'PASS' : 'FAIL'})`,
  );
} finally {
  await pool.end();
  await server.stop();
}
console.log(`(${((performance.now() - began) / 1000).toFixed(1)} s)`);
