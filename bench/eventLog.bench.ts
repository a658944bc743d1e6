/**
 * Event-log benchmark (run by `npm run bench`; built `dist/`, NODE_ENV=production): what building
 * and loading a log costs as it grows, for a snapshot distance of 256 (the default) and of 65,536
 * (the largest), with a window of 20 messages (`maxMessages`, heuristic tokens).
 *
 * - `appendAction`: a log of `memory/messageAdded` actions (decoded, canonical messages from the
 *   fixed-seed conversation of `fixtures.ts`) is built from empty with `appendAction`; when it
 *   holds 1,000, 10,000 and 100,000 actions, the next 1,000 appends are timed on their own (the
 *   cost of one append at that length), and the whole build's mean per append is shown.
 * - `decodeEnvelope`: a log's envelope of 0.8 MB and of 1.6 MB of JSON (short actions, as a
 *   hostile or merely long file holds them: a message now and then, `memory/cleared`,
 *   `memory/limitsEnforced` and `memory/summaryApplied` between), decoded from parsed JSON
 *   (`JSON.parse` not timed); the time per action, for `snapshot_every` 256 and 65,536 (the same
 *   actions: only the field differs).
 *
 * Medians of 5 runs (3 when a run takes over 3 s, 1 over 30 s); [min–max] shown (2 shared, noisy
 * cores).
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { EventLog, MemoryAction, Message } from '../src/entries/index';
import { generateConversation } from './fixtures';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const CONFIG = { maxMessages: 20, tokenizer: 'heuristic' as const };
const EVERY = [256, 65_536];
const SIZES = [1_000, 10_000, 100_000];
const PROBE = 1_000;

const us = (value: number): string =>
  value < 10 ? value.toFixed(2) : value < 1000 ? value.toFixed(1) : Math.round(value).toString();
const shown = (samples: number[]): string => {
  const s = medianOf(samples);
  return `${us(s.median)} µs [${us(s.min)}–${us(s.max)}]`;
};
const time = (run: () => void): number => {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
};
/** Runs `once` 5 times (3 when a run takes over 3 s, once over 30 s): each run's result. */
const repeat = <T>(once: () => { ms: number; value: T }): T[] => {
  const values: T[] = [];
  let runs = 5;
  for (let r = 0; r < runs; r++) {
    const { ms, value } = once();
    values.push(value);
    runs = Math.min(runs, ms > 30_000 ? 1 : ms > 3_000 ? 3 : 5);
  }
  return values;
};

let sink = 0;
const pool = generateConversation(4_000);
const decodedAdd = (i: number): MemoryAction => {
  const result = lib.decodeAction({
    type: 'memory/messageAdded',
    payload: JSON.parse(JSON.stringify(pool[i % pool.length] as Message)) as unknown,
  });
  if (result._tag === 'Left') throw result.left;
  return result.right;
};
const total = SIZES[SIZES.length - 1] as number;
const adds = Array.from({ length: total + SIZES.length * PROBE }, (_, i) => decodedAdd(i));

console.log(`\nevent log · appendAction, window 20, heuristic tokens`);
for (const snapshotEvery of EVERY) {
  const runs = repeat(() => {
    let log: EventLog = lib.createEventLog(CONFIG, { snapshotEvery });
    let next = 0;
    let building = 0;
    const probes: number[] = [];
    for (const size of SIZES) {
      building += time(() => {
        while (log.length < size) log = lib.appendAction(log, adds[next++] as MemoryAction);
      });
      probes.push(
        (time(() => {
          for (let k = 0; k < PROBE; k++) log = lib.appendAction(log, adds[next++] as MemoryAction);
        }) *
          1000) /
          PROBE,
      );
      // The probe's appends are part of the log now: the next size counts them.
    }
    sink += log.length;
    return { ms: building, value: { probes, mean: (building * 1000) / total } };
  });
  const cells = SIZES.map(
    (size, i) =>
      `at ${size.toLocaleString('en-US')}: ${shown(runs.map((run) => run.probes[i] as number))}`,
  );
  console.log(
    `  snapshotEvery ${String(snapshotEvery).padEnd(6)} per append ${cells.join(' · ')}; ` +
      `building ${total.toLocaleString('en-US')}: ${shown(runs.map((run) => run.mean))} per append`,
  );
}

/** The envelope JSON of a log of short actions, about `bytes` long. */
const envelopeOf = (bytes: number): { text: string; actions: number } => {
  const initial = lib.toDict(lib.createMemory(CONFIG));
  const actions: unknown[] = [];
  let size = JSON.stringify(initial).length + 120;
  for (let i = 0; size < bytes; i++) {
    const action =
      i % 8 === 0
        ? { type: 'memory/messageAdded', payload: { role: 'user', content: `m${i}` } }
        : i % 8 === 4
          ? { type: 'memory/summaryApplied', payload: `s${i % 100}` }
          : i % 2 === 1
            ? { type: 'memory/cleared' }
            : { type: 'memory/limitsEnforced' };
    actions.push(action);
    size += JSON.stringify(action).length + 1;
  }
  const envelope = {
    schema: 'conversation-memory',
    version: 1,
    kind: 'log',
    data: { initial, snapshot_every: 0, actions },
  };
  return { text: JSON.stringify(envelope), actions: actions.length };
};

console.log(`\nevent log · decodeEnvelope (parsed JSON), short actions`);
for (const bytes of [800_000, 1_600_000]) {
  const { text, actions } = envelopeOf(bytes);
  for (const snapshotEvery of EVERY) {
    const input = text.replace('"snapshot_every":0', `"snapshot_every":${snapshotEvery}`);
    const perAction = repeat(() => {
      const parsed = JSON.parse(input) as unknown;
      let length = 0;
      const ms = time(() => {
        const result = lib.decodeEnvelope(parsed);
        if (result._tag === 'Left') throw result.left;
        if (result.right.kind !== 'log') throw new Error('expected a log');
        length = result.right.log.length;
      });
      if (length !== actions) throw new Error(`decoded ${length} of ${actions} actions`);
      sink += length;
      return { ms, value: (ms * 1000) / actions };
    });
    const whole = (medianOf(perAction).median * actions) / 1e6;
    console.log(
      `  ${(input.length / 1e6).toFixed(2)} MB, ${actions.toLocaleString('en-US')} actions, ` +
        `snapshot_every ${String(snapshotEvery).padEnd(6)} ${shown(perAction)} per action ` +
        `(${whole < 1 ? `${Math.round(whole * 1000)} ms` : `${whole.toFixed(1)} s`} per decode)`,
    );
  }
}
if (sink < 0) console.log(sink);
