/**
 * addMessage benchmark: the per-add cost of a full sliding window.
 *
 * Run: `npm run bench` builds, then measures the built `dist/` (the artifact users install) with
 * `NODE_ENV=production BENCH_DIST=1 tsx bench/addMessage.bench.ts`. `npm run bench:src` measures
 * `src/` through tsx instead. Not a timed test: it prints a table and exits 0; the targets are
 * printed beside the figures. About 10–20 s.
 *
 * What is measured. For windows of 20, 1,000 and 10,000 messages that are already at their
 * message limit (`maxMessages = N`), with a token limit of `N × 1,000` (far above what N messages
 * of at most 600 characters can hold, so the count rule is what trims each add while the token
 * rule is still evaluated on every add), for the `'heuristic'` and `'o200k_base'` tokenizers:
 *
 * - ours: `state = addMessage(state, message).state` (public API, reducer style), where the
 *   message is a plain object as an agent receives it from a provider, so each add pays for
 *   validation, the canonical frozen copy, counting the new message's tokens and the new window;
 * - ours, pre-built: the same with messages that are already canonical (made by this library
 *   before, e.g. moved from another state), which isolates the window itself;
 * - the reference port (`bench/referenceMemory.ts`): a mutable array that re-sums every
 *   message's tokens on every add, with `floor(len / 4)` for 'heuristic' and with gpt-tokenizer's
 *   o200k `countTokens` for 'o200k_base', which shows what re-counting costs.
 *
 * For 'o200k_base' at 20 messages it also times counting the new message alone (gpt-tokenizer's
 * `countTokens` on exactly what the library counts: the text, each tool call's name and its JSON
 * parameters), and prints ours / count-alone.
 *
 * Method. Messages come from a deterministic conversation (fixed seed, `bench/fixtures.ts`) of
 * user questions, assistant answers, assistant tool-call turns and tool results, 50–600
 * characters each, cycled. Each series first calibrates (doubling the batch until one takes
 * ≥ 30 ms, which also warms up the JIT) and runs one more warm-up batch; then 11 batches are
 * timed with `performance.now()`, the series of one row (ours, pre-built, reference port,
 * count-alone) interleaved batch by batch so that noise hits them alike. The figure is the
 * median per-add time across batches; min and max are shown so noise is visible (this machine
 * has 2 shared, noisy cores). Outside the timed batches,
 * a check runs each configuration for 500 adds from the same start and asserts that the token
 * rule never fired and that our window equals the reference port's.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type * as Library from '../src/index';
import type { MemoryState, Message, TokenizerName } from '../src/index';
import { generateConversation } from './fixtures';
import { ReferenceMemory, referenceHeuristic } from './referenceMemory';

/**
 * The library under test: `src/` through tsx by default; the built `dist/index.js` (run
 * `npm run build` first) with `BENCH_DIST=1`. tsx compiles with esbuild's `keepNames`, which wraps
 * every closure created at run time in a `__name()` call (an `Object.defineProperty`); the build
 * does not, so hot paths that create closures per call measure slower from `src/`.
 */
const FROM_DIST = process.env['BENCH_DIST'] === '1';
const DIST_ENTRY: string = new URL('../dist/index.js', import.meta.url).href;
const library = (
  FROM_DIST ? await import(DIST_ENTRY) : await import('../src/index')
) as typeof Library;
const { addMessage, addMessages, createMemory, messageText } = library;

const SIZES = [20, 1_000, 10_000] as const;
const TOKENIZERS = ['heuristic', 'o200k_base'] as const satisfies readonly TokenizerName[];
const BATCHES = 11;
const TARGET_BATCH_MS = 30;
const TOKENS_PER_MESSAGE_BUDGET = 1_000;
const CHECK_ADDS = 500;

/** The performance targets of this library, heuristic tokenizer, µs per add. */
const TARGETS: Readonly<Record<number, number>> = { 1_000: 4, 10_000: 30 };
const COUNT_RATIO_TARGET = 1.3;

const POOL: readonly Message[] = generateConversation(4_000);
const P = POOL.length;
const at = (i: number): Message => POOL[i % P] as Message;

/** Canonical (validated, frozen) copies of the pool, made by the library itself. */
const CANONICAL: readonly Message[] = addMessages(
  createMemory({ maxMessages: P, tokenizer: 'heuristic' }),
  POOL,
).state.messages;
const canonicalAt = (i: number): Message => CANONICAL[i % P] as Message;

const prefix = (n: number, pick: (i: number) => Message): Message[] =>
  Array.from({ length: n }, (_, i) => pick(i));

interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly batchSize: number;
}

type Runner = (adds: number) => void;

/** Doubles the batch until one takes ≥ TARGET_BATCH_MS (this also warms up), then sizes it. */
const calibrate = (run: Runner): number => {
  let adds = 1;
  for (;;) {
    const t0 = performance.now();
    run(adds);
    const elapsed = performance.now() - t0;
    if (elapsed >= TARGET_BATCH_MS)
      return Math.max(1, Math.ceil((adds * TARGET_BATCH_MS) / elapsed));
    adds *= 2;
  }
};

/**
 * Calibrates and warms up each series, then times BATCHES rounds in which every series runs one
 * batch in turn (interleaved, so a burst of noise from the shared cores hits all series alike
 * and the ratios stay meaningful). Per-add figures in µs.
 */
const measure = (runs: readonly Runner[]): Stats[] => {
  const sizes = runs.map(calibrate);
  runs.forEach((run, j) => run(sizes[j] as number));
  const samples = runs.map((): number[] => []);
  for (let b = 0; b < BATCHES; b++) {
    runs.forEach((run, j) => {
      const size = sizes[j] as number;
      const t0 = performance.now();
      run(size);
      samples[j]?.push(((performance.now() - t0) * 1_000) / size);
    });
  }
  return samples.map((perAdd, j) => {
    perAdd.sort((x, y) => x - y);
    return {
      median: perAdd[Math.floor(BATCHES / 2)] as number,
      min: perAdd[0] as number,
      max: perAdd[BATCHES - 1] as number,
      batchSize: sizes[j] as number,
    };
  });
};

const memoryFor = (n: number, tokenizer: TokenizerName, pick: (i: number) => Message) =>
  addMessages(
    createMemory({ maxMessages: n, maxTokens: n * TOKENS_PER_MESSAGE_BUDGET, tokenizer }),
    prefix(n, pick),
  ).state;

/** Ours: a full window, then `addMessage` per message. Returns the runner and a state probe. */
const oursRunner = (n: number, tokenizer: TokenizerName, pick: (i: number) => Message) => {
  let state: MemoryState = memoryFor(n, tokenizer, pick);
  let next = n;
  const run = (adds: number): void => {
    for (let k = 0; k < adds; k++) state = addMessage(state, pick(next++)).state;
  };
  return { run, current: () => state };
};

const counterFor = (tokenizer: (typeof TOKENIZERS)[number]): ((text: string) => number) =>
  tokenizer === 'heuristic' ? referenceHeuristic : (text) => countTokens(text);

const referenceRunner = (n: number, tokenizer: (typeof TOKENIZERS)[number]) => {
  const memory = new ReferenceMemory(n, n * TOKENS_PER_MESSAGE_BUDGET, counterFor(tokenizer));
  memory.addMany(prefix(n, at));
  let next = n;
  return (adds: number): void => {
    for (let k = 0; k < adds; k++) memory.add(at(next++));
  };
};

/** What the library counts for a message with an encoding, counted directly with gpt-tokenizer. */
const countAlone = (message: Message): number => {
  let total = countTokens(messageText(message));
  for (const call of message.toolCalls ?? []) {
    total += countTokens(call.name) + countTokens(JSON.stringify(call.parameters));
  }
  return total;
};

/**
 * Outside timing: 500 adds from the same full window with ours and the reference port. Asserts
 * the token rule never fired, and that both windows hold the same messages in the same order.
 */
const check = (n: number, tokenizer: TokenizerName) => {
  let state = memoryFor(n, tokenizer, at);
  const reference = new ReferenceMemory(n, n * TOKENS_PER_MESSAGE_BUDGET, referenceHeuristic);
  reference.addMany(prefix(n, at));
  let countTrims = 0;
  let boundaryTrims = 0;
  for (let i = n; i < n + CHECK_ADDS; i++) {
    const { state: nextState, effects } = addMessage(state, at(i));
    state = nextState;
    reference.add(at(i));
    for (const effect of effects) {
      if (effect.type !== 'memory/trimmed' || effect.reason !== 'enforce_limits') continue;
      if (effect.breakdown.tokenLimit !== 0) throw new Error(`token rule fired (N=${n})`);
      if (effect.breakdown.messageLimit > 0) countTrims++;
      if (effect.breakdown.toolPairBoundary > 0) boundaryTrims++;
    }
  }
  const ours = state.messages;
  const theirs = reference.messages;
  const same =
    ours.length === theirs.length &&
    ours.every((m, i) => m.role === theirs[i]?.role && m.content === theirs[i]?.content);
  if (!same) throw new Error(`window differs from the reference port (N=${n}, ${tokenizer})`);
  if (ours.length > n || state.totalTokens > n * TOKENS_PER_MESSAGE_BUDGET) {
    throw new Error(`limits not kept (N=${n}, ${tokenizer})`);
  }
  return { countTrims, boundaryTrims, length: ours.length };
};

const us = (value: number): string =>
  value < 10 ? value.toFixed(2) : value < 1_000 ? value.toFixed(1) : value.toFixed(0);
const times = (value: number): string => `${value < 1 ? value.toFixed(2) : value.toFixed(1)}×`;
const verdict = (value: number, target: number): string => (value <= target ? 'PASS' : 'FAIL');
const cell = (s: Stats): string => `${us(s.median)} [${us(s.min)}–${us(s.max)}]`;
const row = (cells: readonly string[], widths: readonly number[]): string =>
  cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();

const started = performance.now();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log('conversation-memory · addMessage benchmark');
console.log(
  `library: ${FROM_DIST ? 'dist/index.js (built)' : 'src/ through tsx (esbuild keepNames on)'}`,
);
console.log(
  `node ${process.version} · ${cpus().length} × ${cpu} · NODE_ENV=${process.env['NODE_ENV'] ?? '(unset)'}`,
);
if (process.env['NODE_ENV'] !== 'production') {
  console.log('warning: NODE_ENV is not "production"; windows are frozen on every add (dev mode)');
}
const probe = oursRunner(20, 'heuristic', at);
probe.run(1);
console.log(
  `Object.isFrozen(state.messages) after an add: ${Object.isFrozen(probe.current().messages)}` +
    ' (production mode does not freeze whole windows)',
);
const avgChars = Math.round(POOL.reduce((s, m) => s + (m.content ?? '').length, 0) / P);
const roles = POOL.reduce<Record<string, number>>((acc, m) => {
  acc[m.role] = (acc[m.role] ?? 0) + 1;
  return acc;
}, {});
console.log(
  `messages: ${P} generated (seed 20261130), cycled; ${avgChars} chars on average; ` +
    Object.entries(roles)
      .map(([role, count]) => `${role} ${count}`)
      .join(', '),
);
console.log(
  `window at its limit: maxMessages = N, maxTokens = N × ${TOKENS_PER_MESSAGE_BUDGET}` +
    ` · ${BATCHES} batches of ≥ ${TARGET_BATCH_MS} ms after warm-up`,
);
console.log('');
console.log('per-add cost, µs: median [min–max] across batches');

const widths = [10, 6, 21, 21, 26, 8, 30];
console.log(
  row(
    ['tokenizer', 'N', 'ours', 'ours, pre-built', 'reference port (recount)', 'ref/ours', 'target'],
    widths,
  ),
);
console.log(
  row(
    widths.map((w) => '-'.repeat(w)),
    widths,
  ),
);

let nextCount = 20;
let sink = 0;
const countAloneRunner: Runner = (adds) => {
  for (let k = 0; k < adds; k++) sink += countAlone(at(nextCount++));
};
const countLines: string[] = [];

for (const tokenizer of TOKENIZERS) {
  for (const n of SIZES) {
    const withCount = tokenizer === 'o200k_base' && n === 20;
    const runners: Runner[] = [
      oursRunner(n, tokenizer, at).run,
      oursRunner(n, tokenizer, canonicalAt).run,
      referenceRunner(n, tokenizer),
      ...(withCount ? [countAloneRunner] : []),
    ];
    const [ours, prebuilt, reference, alone] = measure(runners) as [Stats, Stats, Stats, Stats?];
    const target = tokenizer === 'heuristic' ? TARGETS[n] : undefined;
    const targetCell =
      target === undefined
        ? ''
        : `≤ ${target}: ours ${verdict(ours.median, target)}, pre-built ${verdict(prebuilt.median, target)}`;
    console.log(
      row(
        [
          tokenizer,
          n.toLocaleString('en-US'),
          cell(ours),
          cell(prebuilt),
          cell(reference),
          times(reference.median / ours.median),
          targetCell,
        ],
        widths,
      ),
    );
    if (alone === undefined) continue;
    countLines.push(
      `o200k_base, N = 20: counting the new message alone (gpt-tokenizer countTokens): ${cell(alone)} µs`,
    );
    for (const [label, stats] of [
      ['ours', ours],
      ['ours, pre-built', prebuilt],
    ] as const) {
      const ratio = stats.median / alone.median;
      countLines.push(
        `  ${label} / count-alone = ${us(stats.median)} / ${us(alone.median)} = ${ratio.toFixed(2)}` +
          ` (target ≤ ${COUNT_RATIO_TARGET}: ${verdict(ratio, COUNT_RATIO_TARGET)})`,
      );
    }
  }
}
console.log('');
for (const line of countLines) console.log(line);
if (sink < 0) console.log(sink);

console.log('');
for (const n of SIZES) {
  for (const tokenizer of TOKENIZERS) {
    const { countTrims, boundaryTrims, length } = check(n, tokenizer);
    console.log(
      `check ${tokenizer.padEnd(10)} N=${String(n).padEnd(6)} ${CHECK_ADDS} adds: count rule trimmed on ` +
        `${countTrims}, boundary rule on ${boundaryTrims}, token rule on 0; final window ${length}` +
        ' messages, identical to the reference port',
    );
  }
}
console.log('');
console.log(`done in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
