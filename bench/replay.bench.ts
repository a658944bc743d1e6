/**
 * Event-log benchmark (run by `npm run bench` after the add benchmark; built `dist/`,
 * NODE_ENV=production): a 100,000-action log of `memory/messageAdded` actions (the fixed-seed
 * agent conversation of `fixtures.ts`, cycled), with windows of 20 and 1,000 messages
 * (`maxMessages`, heuristic tokens).
 *
 * - replay throughput: folding the log with `memoryReducer`, from actions read back with
 *   `JSON.parse` (plain-object messages, validated and copied on entry) and from actions decoded
 *   with `decodeAction` (canonical messages);
 * - in the same run, the cost of copying the window once (`slice(1).concat([m])`, the floor of any
 *   immutable add), and replay per action divided by it (the targets: ≤ 10× at window 20,
 *   ≤ 3× at 1,000, for the plain-object replay);
 * - `seek` latency at 200 random steps of a log built with `appendAction` (snapshots every 256).
 *
 * Medians of 7 runs; [min–max] shown (2 shared, noisy cores). The replay/copy ratio is the median
 * of the per-run ratios: a replay and the copy measured right after it share the machine's load.
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { MemoryAction, Message } from '../src/entries/index';
import { generateConversation } from './fixtures';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const ACTIONS = 100_000;
const RUNS = 7;
const pool = generateConversation(4_000);
const actions: MemoryAction[] = Array.from({ length: ACTIONS }, (_, i) => ({
  type: 'memory/messageAdded',
  payload: pool[i % pool.length] as Message,
}));
const asJson = JSON.parse(JSON.stringify(actions)) as MemoryAction[];

const us = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const time = (run: () => void): number => {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
};

let sink = 0;
console.log(
  `\nevent log · ${ACTIONS.toLocaleString('en-US')} messageAdded actions, heuristic tokens`,
);
for (const window of [20, 1_000]) {
  const config = { maxMessages: window, tokenizer: 'heuristic' as const };
  const start = lib.createMemory(config);
  const decoded = asJson.map((action) => {
    const result = lib.decodeAction(action);
    if (result._tag === 'Left') throw result.left;
    return result.right;
  });
  const replayPlain: number[] = [];
  const replayDecoded: number[] = [];
  const copies: number[] = [];
  const filled = lib.addMessages(
    start,
    decoded.slice(0, window).map((a) => (a as { payload: Message }).payload),
  ).state.messages;
  for (let r = 0; r < RUNS; r++) {
    replayPlain.push(
      (time(() => (sink += asJson.reduce(lib.memoryReducer, start).totalTokens)) * 1000) / ACTIONS,
    );
    replayDecoded.push(
      (time(() => (sink += decoded.reduce(lib.memoryReducer, start).totalTokens)) * 1000) / ACTIONS,
    );
    copies.push(
      (time(() => {
        let w: readonly Message[] = filled;
        for (let i = 0; i < ACTIONS; i++) w = w.slice(1).concat([pool[i % pool.length] as Message]);
        sink += w.length;
      }) *
        1000) /
        ACTIONS,
    );
  }
  const plain = medianOf(replayPlain);
  const canon = medianOf(replayDecoded);
  const copy = medianOf(copies);
  const target = window === 20 ? 10 : 3;
  // The ratio of each run's replay to the copy timed right after it (both under the same load of
  // this shared machine), then the median of those ratios.
  const ratio = medianOf(replayPlain.map((t, r) => t / (copies[r] as number))).median;
  console.log(
    `  window ${String(window).padEnd(5)} replay (JSON actions) ${us(plain.median)} µs/action [${us(plain.min)}–${us(plain.max)}] ` +
      `= ${Math.round(1e6 / plain.median).toLocaleString('en-US')} actions/s · replay (decoded) ${us(canon.median)} µs/action · ` +
      `one window copy ${us(copy.median)} µs · replay/copy ${ratio.toFixed(1)}× (target ≤ ${target}×: ${ratio <= target ? 'PASS' : 'FAIL'})`,
  );

  let log = lib.createEventLog(config, { snapshotEvery: 256 });
  const built = time(() => {
    for (const action of decoded) log = lib.appendAction(log, action);
  });
  const seeks: number[] = [];
  for (let k = 0; k < 200; k++) {
    const n = Math.floor((((k * 7919) % 1000) / 1000) * ACTIONS);
    seeks.push(time(() => (sink += lib.seek(log, n).totalTokens)) * 1000);
  }
  const seekStats = medianOf(seeks);
  console.log(
    `               appendAction ${us((built * 1000) / ACTIONS)} µs/action; seek at 200 steps: median ${us(seekStats.median)} µs [${us(seekStats.min)}–${us(seekStats.max)}]`,
  );
}
if (sink < 0) console.log(sink);
