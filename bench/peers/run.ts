/**
 * conversation-memory against peer libraries, on the same per-turn workload, in one process and
 * one run. `npm run bench:peers` (at the repository root) builds the library, installs this
 * folder's own dependencies (`npm --prefix bench/peers ci`) and runs this file with
 * `NODE_ENV=production`. It prints plain-text tables (the README's comparison is copied from
 * them) and exits 0; it throws if a cross-check fails.
 *
 * Workload (`workload.ts`): the fixed-seed agent conversation of `bench/fixtures.ts`, cut into
 * turns before each model call ([user], [assistant with tool calls, its results], [answer, next
 * user], …). At each turn a system appends the turn's messages to its memory and produces the
 * window it would send to the model, the system prompt first. Every window has the same token
 * budget, counted with the same counter (o200k_base: text, tool-call names, JSON arguments; see
 * `workload.ts` for LlamaIndex's own count). Two scenarios:
 *
 * - a window of about 20 messages (1,100 tokens), after a history of 200 messages;
 * - a window of about 1,000 messages (53,000 tokens), after a history of 2,000 messages.
 *
 * The history is replayed turn by turn, untimed; then the next 40 turns are timed.
 *
 * Systems (`systems/`): conversation-memory with its default (reference) policy and with the
 * provider-safe options (`toolPairs: 'strict'`, `startOn: 'user'`, `pinSystem: true`);
 * LangChain.js `trimMessages` over the whole history, with the documented `startOn`/`endOn` (with
 * a counter that caches its counts, and one that recounts every message on every call, as a
 * model's `getNumTokens` does) and without them; LlamaIndex.TS `Memory` with `getLLM`; and a naive
 * Immer reducer that recounts its window. The system prompt is the first message of
 * conversation-memory's and LangChain's histories; LlamaIndex and the Immer reducer keep it apart
 * and put it first (what LlamaIndex's agent does).
 *
 * Method, per scenario: each system is prepared (conversions, history replay), then a check pass
 * runs the timed turns once on a fresh instance, keeping every window for the checks (it also
 * warms the JIT). A system whose turns are so slow that the check pass passes 6 s stops after the
 * turn that crossed it, and is then timed on the turns it completed. Timed runs follow,
 * interleaved across systems so that noise hits them alike: each run replays the same turns from
 * fresh instances (prepared untimed), repeated until a run takes at least 100 ms; up to 7 runs
 * within 12 s per system. A check pass that took 1 s or more counts as one of the runs (warming
 * the JIT is negligible at that scale), and is the only one when a second would not fit in 12 s.
 * The figure is the median time per turn over runs, [min–max] shown (2 shared, noisy cores here).
 *
 * Checks, on the check pass's windows (with the shared counter): messages per window, the largest
 * window in tokens, the share of windows whose first non-system message is a tool result (an
 * orphan tool result: providers answer 400), and the share that start with the system prompt.
 * The run throws if LangChain's two counters give different windows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Skipped, reasonOf, type Prepared, type System } from './system';
import { conversationMemory, loadLibrary } from './systems/conversationMemory';
import { immerNaive } from './systems/immerNaive';
import { langChain } from './systems/langchain';
import { llamaIndex } from './systems/llamaIndex';
import {
  SCENARIOS,
  SYSTEM_TOKENS,
  scenarioTurns,
  windowFacts,
  type Scenario,
  type WindowFacts,
} from './workload';

const CHECK_BUDGET_MS = 6_000;
const COUNTED_CHECK_MS = 1_000;
const CELL_BUDGET_MS = 12_000;
const MIN_RUN_MS = 100;
const RUNS = 7;

const START = performance.now();
const lib = await loadLibrary();
const SYSTEMS: readonly System[] = [
  conversationMemory(lib, 'conversation-memory, default (reference) policy', {}),
  conversationMemory(lib, 'conversation-memory, strict + startOn user + pinSystem', {
    toolPairs: 'strict',
    startOn: 'user',
    pinSystem: true,
  }),
  langChain('LangChain trimMessages, documented, cached counter', true, true),
  langChain('LangChain trimMessages, documented, uncached counter', true, false),
  langChain('LangChain trimMessages, no startOn/endOn, cached counter', false, true),
  llamaIndex(),
  immerNaive(),
];
const OURS = SYSTEMS[0] as System;
const LC_CACHED = SYSTEMS[2] as System;
const LC_PLAIN = SYSTEMS[3] as System;

// ---------------------------------------------------------------- versions

const versionAt = (path: string): string => {
  const url = new URL(path, import.meta.url);
  if (!existsSync(url)) return 'not installed';
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
};
const peerVersion = (name: string): string => versionAt(`./node_modules/${name}/package.json`);
const commit = ((): string => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown commit';
  }
})();

// ---------------------------------------------------------------- measurement

interface Cell {
  readonly system: System;
  readonly skipped?: string;
  readonly prepared?: Prepared;
  /** Turns timed per run (those the check pass completed). */
  turns: number;
  /** Per-turn times of the runs, ms. */
  readonly samples: number[];
  reps: number;
  runs: number;
  facts: WindowFacts[];
  views: ReturnType<Prepared['view']>[];
}

const settle = async (result: unknown): Promise<unknown> =>
  result instanceof Promise ? await result : result;

/**
 * One pass over the timed turns, keeping the windows; stops once past the check budget. A pass
 * that took at least `COUNTED_CHECK_MS` is also one of the runs (warming the JIT is negligible at
 * that scale); one that leaves no room for a second run in the cell budget is the only one.
 */
const checkPass = async (cell: Cell, total: number): Promise<void> => {
  const prepared = cell.prepared as Prepared;
  const instance = await prepared.fresh();
  const windows: unknown[] = [];
  const t0 = performance.now();
  let elapsed = 0;
  for (let k = 0; k < total && elapsed <= CHECK_BUDGET_MS; k++) {
    windows.push(await settle(instance.step(k)));
    elapsed = performance.now() - t0;
  }
  cell.turns = windows.length;
  cell.views = windows.map((window) => prepared.view(window));
  cell.facts = cell.views.map(windowFacts);
  if (elapsed >= COUNTED_CHECK_MS) cell.samples.push(elapsed / cell.turns);
  if (elapsed * 2 > CELL_BUDGET_MS) return;
  cell.reps = Math.max(1, Math.ceil(MIN_RUN_MS / elapsed));
  const runs = Math.min(RUNS, Math.floor(CELL_BUDGET_MS / (elapsed * cell.reps)));
  cell.runs = Math.max(1, runs - cell.samples.length);
};

/** One timed run: `reps` fresh instances (made untimed) each replay the cell's turns. */
const timedRun = async (cell: Cell): Promise<void> => {
  const prepared = cell.prepared as Prepared;
  const instances = [];
  for (let r = 0; r < cell.reps; r++) instances.push(await prepared.fresh());
  const t0 = performance.now();
  for (const instance of instances) {
    for (let k = 0; k < cell.turns; k++) {
      const result = instance.step(k);
      if (result instanceof Promise) await result;
    }
  }
  cell.samples.push((performance.now() - t0) / (cell.reps * cell.turns));
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

// ---------------------------------------------------------------- output

const time = (ms: number): string => {
  const fixed = (value: number): string =>
    value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
  if (ms < 1) return `${fixed(ms * 1000)} µs`;
  if (ms < 1000) return `${fixed(ms)} ms`;
  return `${fixed(ms / 1000)} s`;
};
const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const share = (count: number, of: number): string =>
  `${count}/${of} (${Math.round((100 * count) / of)}%)`;
const ratio = (value: number): string => (value < 10 ? `${value.toFixed(2)}×` : `${int(value)}×`);

const table = (rows: readonly (readonly string[])[]): string => {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) =>
          c === 0 ? cell.padEnd(widths?.[c] ?? 0) : cell.padStart(widths?.[c] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
};

const report = (scenario: Scenario, cells: readonly Cell[]): void => {
  const ours = cells.find((cell) => cell.system === OURS);
  const oursMedian = ours === undefined ? Number.NaN : median(ours.samples);
  const rows: string[][] = [
    [
      'system',
      'per turn (median)',
      '[min–max]',
      'runs×turns',
      'vs ours',
      'msgs/window',
      'max tokens',
      'orphan tool result first',
      'system prompt first',
    ],
  ];
  for (const cell of cells) {
    if (cell.skipped !== undefined) {
      rows.push([cell.system.label, `skipped: ${cell.skipped}`, '', '', '', '', '', '', '']);
      continue;
    }
    const m = median(cell.samples);
    const n = cell.facts.length;
    rows.push([
      cell.system.label,
      time(m),
      `[${time(Math.min(...cell.samples))}–${time(Math.max(...cell.samples))}]`,
      `${cell.samples.length}×${cell.turns}`,
      ratio(m / oursMedian),
      (cell.facts.reduce((sum, facts) => sum + facts.messages, 0) / n).toFixed(1),
      int(Math.max(...cell.facts.map((facts) => facts.tokens))),
      share(cell.facts.filter((facts) => facts.orphanStart).length, n),
      share(cell.facts.filter((facts) => facts.systemFirst).length, n),
    ]);
  }
  console.log(
    `\nwindow ≈${int(scenario.approxMessages)} messages · budget ${int(scenario.budget)} tokens ` +
      `(system prompt ${SYSTEM_TOKENS} included) · history ${int(scenario.history)} messages · ` +
      `${scenario.timedTurns} timed turns`,
  );
  console.log(table(rows));
};

// ---------------------------------------------------------------- run

console.log(
  'conversation-memory vs peers: the same per-turn window workload, one process, one run',
);
console.log(
  `node ${process.version} · ${process.platform} ${process.arch} · ${cpus().length} × ` +
    `${cpus()[0]?.model.trim() ?? 'unknown CPU'} · NODE_ENV=${process.env['NODE_ENV'] ?? ''}`,
);
console.log(
  `conversation-memory ${versionAt('../../package.json')} (dist/ of ${commit}; its ` +
    `gpt-tokenizer ${versionAt('../../node_modules/gpt-tokenizer/package.json')}) · ` +
    `@langchain/core ${peerVersion('@langchain/core')} · ` +
    `@llamaindex/core ${peerVersion('@llamaindex/core')} · immer ${peerVersion('immer')} · ` +
    `gpt-tokenizer ${peerVersion('gpt-tokenizer')} · tsx ${peerVersion('tsx')}`,
);
console.log(
  'workload: bench/fixtures.ts generateConversation (seed 20261130), one turn per model call; ' +
    'counter: o200k_base of text + tool-call names + JSON arguments, for all ' +
    '(LlamaIndex: its own count of the text only, with the same o200k encoder)',
);

for (const scenario of SCENARIOS) {
  const turns = scenarioTurns(scenario);
  const cells: Cell[] = [];
  for (const system of SYSTEMS) {
    const base = { system, turns: 0, samples: [], reps: 1, runs: 0, facts: [], views: [] };
    try {
      cells.push({ ...base, prepared: await system.prepare(scenario, turns) });
    } catch (error) {
      if (!(error instanceof Skipped)) throw error;
      cells.push({ ...base, skipped: reasonOf(error) });
    }
  }
  const live = cells.filter((cell) => cell.skipped === undefined);
  for (const cell of live) await checkPass(cell, turns.timed.length);
  for (let run = 0; run < RUNS; run++) {
    for (const cell of live) if (run < cell.runs) await timedRun(cell);
  }
  // Both LangChain counters count the same: their windows must be the same.
  const cached = cells.find((cell) => cell.system === LC_CACHED);
  const plain = cells.find((cell) => cell.system === LC_PLAIN);
  if (cached?.skipped === undefined && plain?.skipped === undefined) {
    plain?.views.forEach((window, k) => {
      if (JSON.stringify(window) !== JSON.stringify(cached?.views[k])) {
        throw new Error(`bench/peers: LangChain's counters gave different windows at turn ${k}`);
      }
    });
  }
  report(scenario, cells);
}
console.log(
  '\nper turn: append the turn (1–4 messages) and produce the window. vs ours: ratio of medians to ' +
    'the first row. runs×turns: timed runs × turns per run (a system timed on fewer than 40 turns ' +
    'stopped after its check pass passed 6 s). msgs/window, max tokens (shared counter), orphan ' +
    "and system-prompt shares: over the windows of the check pass; LangChain's uncached counter " +
    `gives the same windows as the cached one (checked). Total ${time(performance.now() - START)}.`,
);
