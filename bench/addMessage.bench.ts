/**
 * addMessage benchmark: the per-add cost of a full sliding window.
 *
 * Run: `npm run bench` builds, then measures the built `dist/` (the artifact users install) with
 * `NODE_ENV=production BENCH_DIST=1 tsx bench/addMessage.bench.ts`. `npm run bench:src` measures
 * `src/` through tsx instead. Not a timed test: it prints two tables and exits 0 (it throws if a
 * check fails); the targets are printed beside the figures. About 50–60 s.
 *
 * What is measured, for the `'heuristic'` and `'o200k_base'` tokenizers, in two groups of rows:
 *
 * - count-bound: windows of 20, 1,000 and 10,000 messages that are already at their message limit
 *   (`maxMessages = N`), with a token limit of `N × 1,000` (far above what N messages of at most
 *   600 characters can hold), so the count rule is what trims each add while the token rule is
 *   still evaluated on every add. The targets apply to these rows.
 * - token-bound: `maxMessages = 10 × N` (never reached) and `maxTokens` = the token total of the
 *   first N messages of the fixture, as the library stores it for that tokenizer (`addMessages`
 *   into an unlimited memory, then `state.totalTokens`). The window starts with exactly those N
 *   messages at exactly its token limit, so it holds about N messages and the token rule is the
 *   only limit that trims: messages vary in size, so it fires on about half the adds and removes
 *   one or more messages when it does (the check prints how often). N = 20, 1,000 and 10,000; no
 *   targets.
 *
 * The three columns of each row:
 *
 * - ours: `state = addMessage(state, message).state` (public API, reducer style), where the
 *   message is a plain object as an agent receives it from a provider, so each add pays for
 *   validation, the canonical frozen copy, counting the new message's tokens and the new window;
 * - ours, pre-built: the same with messages that are already canonical (made by this library
 *   before, e.g. moved from another state), which isolates the window itself;
 * - the reference port (`bench/referenceMemory.ts`), same limits: a mutable array that re-sums
 *   every message's tokens on every iteration of its token loop (once per add, plus once per
 *   message the token rule removes), which shows what re-counting costs. With 'heuristic' it counts `floor(len / 4)` of the content, exactly as the library
 *   does. With 'o200k_base' it counts with gpt-tokenizer's o200k `countTokens`: the content alone
 *   in the count-bound rows (the token rule never fires there, so only the cost differs); in the
 *   token-bound rows exactly what the library counts (the text, each tool call's name and its
 *   JSON parameters), so that it trims the same messages and holds the same window as ours. A
 *   reference cell whose single add is estimated (from timing one recount of a sample of its
 *   window) to exceed 1 s is skipped rather than measured.
 *
 * Policies: at N = 1,000 and 10,000 (count-bound, heuristic) it times the provider-safe policy
 * (`toolPairs: 'strict'` with `pinSystem`, the window starting with a pinned system prompt)
 * against the reference policy, interleaved in the same run; the target is a ratio ≤ 1.5. It
 * throws if the pinned prompt left the window.
 *
 * Trimming in steps (issue #29): at N = 1,000 (heuristic, count-bound and token-bound) it times
 * `trimTo: 0.7` (when a limit binds, one step down to 70% of it) against `trimTo: 1` (today's trim,
 * one message per add once full), interleaved in the same run. A batch spans hundreds of adds, so
 * the figure is the cost per add amortized over the steps; the goal is a ratio ≤ 1. It throws if
 * the stepped window passes a limit or never stepped.
 *
 * For 'o200k_base' at 20 messages (count-bound) it also times counting the new message alone
 * (gpt-tokenizer's `countTokens` on exactly what the library counts), and prints
 * ours / count-alone.
 *
 * Method. Messages come from a deterministic conversation (fixed seed, `bench/fixtures.ts`) of
 * user questions, assistant answers, assistant tool-call turns and tool results, 50–600
 * characters each, cycled. Each series first calibrates (doubling the batch until one takes
 * ≥ 30 ms, which also warms up the JIT; at least 8 adds, so that a batch of the slow reference
 * port averages over adds that trim and adds that do not) and runs one more warm-up batch; then
 * 11 batches are timed with `performance.now()`, the series of one row (ours, pre-built,
 * reference port, count-alone) interleaved batch by batch so that noise hits them alike. The
 * figure is the median per-add time across batches; min and max are shown so noise is visible
 * (this machine has 2 shared, noisy cores).
 *
 * Check. Outside the timed batches, every configuration of both groups runs 500 adds from the
 * same start with ours and with the reference port counting exactly what the library counts
 * (memoized, since only the result matters here). It asserts that both windows hold the same
 * messages in the same order, that our stored total equals the port's recount, and that the
 * limits hold; it prints how many adds each rule trimmed on, and throws if the token rule fired
 * in a count-bound window, or if it never fired (or the count rule did) in a token-bound one, so
 * that neither group can silently stop measuring its path.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type * as Library from '../src/library';
import type { MemoryState, Message, TokenizerName } from '../src/entries/index';
import { generateConversation } from './fixtures';
import { ReferenceMemory, countContent, referenceHeuristic } from './referenceMemory';

/**
 * The library under test: `src/` through tsx by default; the built `dist/library.js` (run
 * `npm run build` first) with `BENCH_DIST=1`. tsx compiles with esbuild's `keepNames`, which wraps
 * every closure created at run time in a `__name()` call (an `Object.defineProperty`); the build
 * does not, so hot paths that create closures per call measure slower from `src/`.
 */
const FROM_DIST = process.env['BENCH_DIST'] === '1';
const DIST_ENTRY: string = new URL('../dist/library.js', import.meta.url).href;
const library = (
  FROM_DIST ? await import(DIST_ENTRY) : await import('../src/library')
) as typeof Library;
const { addMessage, addMessages, createMemory, messageText } = library;

const SIZES = [20, 1_000, 10_000] as const;
const TOKENIZERS = ['heuristic', 'o200k_base'] as const satisfies readonly TokenizerName[];
type Tokenizer = (typeof TOKENIZERS)[number];
const BATCHES = 11;
const TARGET_BATCH_MS = 30;
/**
 * The fewest adds in a batch. A reference add costs one recount plus one per message the token
 * rule removes, so adds differ several-fold; a batch of several averages over them.
 */
const MIN_BATCH_ADDS = 8;
const CHECK_ADDS = 500;

/** Count-bound windows: `maxTokens = N × this`, which N messages can never reach. */
const TOKENS_PER_MESSAGE_BUDGET = 1_000;
/** Token-bound windows: `maxMessages = this × N`, which a window of about N never reaches. */
const TOKEN_BOUND_MESSAGE_FACTOR = 10;
/** A reference cell whose single add is estimated above this is skipped. */
const REFERENCE_ADD_LIMIT_MS = 1_000;
/** How many of a window's messages the reference cost estimate counts (then scales up). */
const ESTIMATE_SAMPLE = 200;

/** The performance targets of this library, heuristic tokenizer, count-bound rows, µs per add. */
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

/**
 * One measured configuration. Every window starts as the first `n` messages of the fixture
 * (which fit both limits) and then receives messages `n`, `n + 1`, … one add at a time.
 */
interface WindowConfig {
  readonly group: 'count-bound' | 'token-bound';
  readonly n: number;
  readonly tokenizer: Tokenizer;
  readonly maxMessages: number;
  readonly maxTokens: number;
  /** `'strict'`: toolPairs 'strict' + pinSystem, the window starting with a pinned system prompt. */
  readonly policy?: 'strict';
  /** `MemoryConfig.trimTo` (default 1). */
  readonly trimTo?: number;
}

const countBound = (n: number, tokenizer: Tokenizer): WindowConfig => ({
  group: 'count-bound',
  n,
  tokenizer,
  maxMessages: n,
  maxTokens: n * TOKENS_PER_MESSAGE_BUDGET,
});

/** The token total of the first `n` messages as the library stores it, with no limit in the way. */
const prefixTokens = (n: number, tokenizer: Tokenizer): number => {
  const state = addMessages(
    createMemory({ maxMessages: n, maxTokens: null, tokenizer }),
    prefix(n, at),
  ).state;
  if (state.messages.length !== n) throw new Error(`the first ${n} messages were trimmed`);
  return state.totalTokens;
};

const tokenBound = (n: number, tokenizer: Tokenizer): WindowConfig => ({
  group: 'token-bound',
  n,
  tokenizer,
  maxMessages: TOKEN_BOUND_MESSAGE_FACTOR * n,
  maxTokens: prefixTokens(n, tokenizer),
});

interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly batchSize: number;
}

type Runner = (adds: number) => void;
type MessageCounter = (message: Message) => number;

/**
 * Doubles the batch until one takes ≥ TARGET_BATCH_MS (this also warms up), then sizes it, with
 * at least MIN_BATCH_ADDS adds.
 */
const calibrate = (run: Runner): number => {
  let adds = 1;
  for (;;) {
    const t0 = performance.now();
    run(adds);
    const elapsed = performance.now() - t0;
    if (elapsed >= TARGET_BATCH_MS)
      return Math.max(MIN_BATCH_ADDS, Math.ceil((adds * TARGET_BATCH_MS) / elapsed));
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

/** Our starting window for a configuration: its first `n` messages, added at once. */
const memoryFor = (config: WindowConfig, pick: (i: number) => Message): MemoryState =>
  config.policy === 'strict'
    ? addMessages(
        createMemory({
          maxMessages: config.maxMessages,
          maxTokens: config.maxTokens,
          tokenizer: config.tokenizer,
          toolPairs: 'strict',
          pinSystem: true,
        }),
        [SYSTEM_PROMPT, ...prefix(config.n - 1, pick)],
      ).state
    : addMessages(
        createMemory({
          maxMessages: config.maxMessages,
          maxTokens: config.maxTokens,
          tokenizer: config.tokenizer,
          trimTo: config.trimTo,
        }),
        prefix(config.n, pick),
      ).state;

/** The pinned system prompt the strict rows start with. */
const SYSTEM_PROMPT: Message = { role: 'system', content: 'You are a helpful travel assistant.' };

/** Ours: the starting window, then `addMessage` per message. Returns the runner and a probe. */
const oursRunner = (config: WindowConfig, pick: (i: number) => Message) => {
  let state: MemoryState = memoryFor(config, pick);
  let next = config.n;
  const run = (adds: number): void => {
    for (let k = 0; k < adds; k++) state = addMessage(state, pick(next++)).state;
  };
  return { run, current: () => state };
};

/** What the library counts for a message with an encoding, counted directly with gpt-tokenizer. */
const countAlone = (message: Message): number => {
  let total = countTokens(messageText(message));
  for (const call of message.toolCalls ?? []) {
    total += countTokens(call.name) + countTokens(JSON.stringify(call.parameters));
  }
  return total;
};

/** Exactly what the library stores for a message (the 'heuristic' count is content only). */
const libraryCounter = (tokenizer: Tokenizer): MessageCounter =>
  tokenizer === 'heuristic' ? countContent(referenceHeuristic) : countAlone;

/**
 * What the timed reference port re-counts: the content alone in the count-bound rows (as these
 * rows always have), what the library counts in the token-bound rows (see the file comment).
 */
const timedReferenceCounter = (config: WindowConfig): MessageCounter =>
  config.group === 'token-bound'
    ? libraryCounter(config.tokenizer)
    : config.tokenizer === 'heuristic'
      ? countContent(referenceHeuristic)
      : countContent((text) => countTokens(text));

/** The same counts, each computed once per message object (for the untimed check). */
const memoized = (count: MessageCounter): MessageCounter => {
  const memo = new WeakMap<Message, number>();
  return (message) => {
    let tokens = memo.get(message);
    if (tokens === undefined) {
      tokens = count(message);
      memo.set(message, tokens);
    }
    return tokens;
  };
};

/**
 * The estimated time of one reference add, in ms: one recount of the window (timed on a sample
 * of its messages, the second of two passes, scaled to its length) times the recounts per add.
 * Cheap, so a cell that would take seconds per add is skipped without running one.
 */
const estimateReferenceAddMs = (
  window: readonly Message[],
  count: MessageCounter,
  recountsPerAdd: number,
): number => {
  const sample = window.slice(0, ESTIMATE_SAMPLE);
  let elapsed = Infinity;
  for (let pass = 0; pass < 2; pass++) {
    const t0 = performance.now();
    for (const message of sample) sink += count(message);
    elapsed = performance.now() - t0;
  }
  return (elapsed * window.length * recountsPerAdd) / Math.max(1, sample.length);
};

/**
 * The reference port from the starting window of a configuration, or `undefined` when one add is
 * estimated to exceed REFERENCE_ADD_LIMIT_MS. A count-bound add recounts once (the window is
 * within its token limit); a token-bound add about twice (over the limit, then within it).
 */
const referenceRunner = (config: WindowConfig): Runner | undefined => {
  const count = timedReferenceCounter(config);
  const memory = new ReferenceMemory(config.maxMessages, config.maxTokens, count);
  memory.addMany(prefix(config.n, at));
  const recountsPerAdd = config.group === 'token-bound' ? 2 : 1;
  if (estimateReferenceAddMs(memory.messages, count, recountsPerAdd) > REFERENCE_ADD_LIMIT_MS) {
    return undefined;
  }
  let next = config.n;
  return (adds) => {
    for (let k = 0; k < adds; k++) memory.add(at(next++));
  };
};

interface CheckResult {
  readonly countTrims: number;
  readonly tokenTrims: number;
  readonly boundaryTrims: number;
  readonly length: number;
  readonly totalTokens: number;
}

/**
 * Outside timing: CHECK_ADDS adds from the same starting window with ours and with the reference
 * port counting exactly what the library counts. Asserts that both windows hold the same messages
 * in the same order, that our stored total equals the port's recount, that the limits hold, and
 * that the rule the group is named for is the one that trimmed.
 */
const check = (config: WindowConfig): CheckResult => {
  const label = `${config.group}, N=${config.n}, ${config.tokenizer}`;
  const count = memoized(libraryCounter(config.tokenizer));
  let state = memoryFor(config, at);
  const reference = new ReferenceMemory(config.maxMessages, config.maxTokens, count);
  reference.addMany(prefix(config.n, at));
  if (state.messages.length !== config.n) throw new Error(`starting window trimmed (${label})`);
  let countTrims = 0;
  let tokenTrims = 0;
  let boundaryTrims = 0;
  for (let i = config.n; i < config.n + CHECK_ADDS; i++) {
    const { state: nextState, effects } = addMessage(state, at(i));
    state = nextState;
    reference.add(at(i));
    for (const effect of effects) {
      if (effect.type !== 'memory/trimmed' || effect.reason !== 'enforce_limits') continue;
      if (effect.breakdown.messageLimit > 0) countTrims++;
      if (effect.breakdown.tokenLimit > 0) tokenTrims++;
      if (effect.breakdown.toolPairBoundary > 0) boundaryTrims++;
    }
  }
  const ours = state.messages;
  const theirs = reference.messages;
  const same =
    ours.length === theirs.length &&
    ours.every((m, i) => m.role === theirs[i]?.role && m.content === theirs[i]?.content);
  if (!same) throw new Error(`window differs from the reference port (${label})`);
  const recount = theirs.reduce((total, m) => total + count(m), 0);
  if (state.totalTokens !== recount) {
    throw new Error(`stored total ${state.totalTokens} ≠ recount ${recount} (${label})`);
  }
  if (ours.length > config.maxMessages || state.totalTokens > config.maxTokens) {
    throw new Error(`limits not kept (${label})`);
  }
  if (config.group === 'count-bound' && tokenTrims !== 0) {
    throw new Error(`the token rule fired in a count-bound window (${label})`);
  }
  if (config.group === 'token-bound' && (tokenTrims === 0 || countTrims !== 0)) {
    throw new Error(
      `not token-bound: token rule trimmed on ${tokenTrims} adds, count rule on ${countTrims} (${label})`,
    );
  }
  return { countTrims, tokenTrims, boundaryTrims, length: ours.length, totalTokens: recount };
};

const us = (value: number): string =>
  value < 10 ? value.toFixed(2) : value < 1_000 ? value.toFixed(1) : value.toFixed(0);
const times = (value: number): string => `${value < 1 ? value.toFixed(2) : value.toFixed(1)}×`;
const verdict = (value: number, target: number): string => (value <= target ? 'PASS' : 'FAIL');
const cell = (s: Stats): string => `${us(s.median)} [${us(s.min)}–${us(s.max)}]`;
const int = (value: number): string => value.toLocaleString('en-US');
const row = (cells: readonly string[], widths: readonly number[]): string =>
  cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();

let sink = 0;
const started = performance.now();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log('conversation-memory · addMessage benchmark');
console.log(
  `library: ${FROM_DIST ? 'dist/library.js (built)' : 'src/ through tsx (esbuild keepNames on)'}`,
);
console.log(
  `node ${process.version} · ${cpus().length} × ${cpu} · NODE_ENV=${process.env['NODE_ENV'] ?? '(unset)'}`,
);
if (process.env['NODE_ENV'] !== 'production') {
  console.log('warning: NODE_ENV is not "production"; windows are frozen on every add (dev mode)');
}
const probe = oursRunner(countBound(20, 'heuristic'), at);
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
  `${BATCHES} batches of ≥ ${TARGET_BATCH_MS} ms and ≥ ${MIN_BATCH_ADDS} adds after warm-up,` +
    ' interleaved per row',
);

const COUNT_BOUND: readonly WindowConfig[] = TOKENIZERS.flatMap((tokenizer) =>
  SIZES.map((n) => countBound(n, tokenizer)),
);
const TOKEN_BOUND: readonly WindowConfig[] = TOKENIZERS.flatMap((tokenizer) =>
  SIZES.map((n) => tokenBound(n, tokenizer)),
);

const widths = [10, 6, 21, 21, 26, 8, 30];
const printHeader = (): void => {
  console.log('per-add cost, µs: median [min–max] across batches');
  console.log(
    row(
      [
        'tokenizer',
        'N',
        'ours',
        'ours, pre-built',
        'reference port (recount)',
        'ref/ours',
        'target',
      ],
      widths,
    ),
  );
  console.log(
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
  );
};

let nextCount = 20;
const countAloneRunner: Runner = (adds) => {
  for (let k = 0; k < adds; k++) sink += countAlone(at(nextCount++));
};
const countLines: string[] = [];

/** Measures and prints one row; count-bound rows carry the targets and the count-alone series. */
const measureRow = (config: WindowConfig): void => {
  const { group, n, tokenizer } = config;
  const withCount = group === 'count-bound' && tokenizer === 'o200k_base' && n === 20;
  const reference = referenceRunner(config);
  const runners: Runner[] = [
    oursRunner(config, at).run,
    oursRunner(config, canonicalAt).run,
    ...(reference === undefined ? [] : [reference]),
    ...(withCount ? [countAloneRunner] : []),
  ];
  const stats = measure(runners);
  const [ours, prebuilt] = stats as [Stats, Stats];
  const referenceStats = reference === undefined ? undefined : stats[2];
  const alone = withCount ? stats[stats.length - 1] : undefined;
  const target = group === 'count-bound' && tokenizer === 'heuristic' ? TARGETS[n] : undefined;
  const targetCell =
    target === undefined
      ? ''
      : `≤ ${target}: ours ${verdict(ours.median, target)}, pre-built ${verdict(prebuilt.median, target)}`;
  console.log(
    row(
      [
        tokenizer,
        int(n),
        cell(ours),
        cell(prebuilt),
        referenceStats === undefined
          ? `skipped (>${REFERENCE_ADD_LIMIT_MS / 1_000} s per add)`
          : cell(referenceStats),
        referenceStats === undefined ? '' : times(referenceStats.median / ours.median),
        targetCell,
      ],
      widths,
    ),
  );
  if (alone === undefined) return;
  countLines.push(
    `o200k_base, N = 20: counting the new message alone (gpt-tokenizer countTokens): ${cell(alone)} µs`,
  );
  for (const [label, s] of [
    ['ours', ours],
    ['ours, pre-built', prebuilt],
  ] as const) {
    const ratio = s.median / alone.median;
    countLines.push(
      `  ${label} / count-alone = ${us(s.median)} / ${us(alone.median)} = ${ratio.toFixed(2)}` +
        ` (target ≤ ${COUNT_RATIO_TARGET}: ${verdict(ratio, COUNT_RATIO_TARGET)})`,
    );
  }
};

console.log('');
console.log(
  `count-bound: window at its message limit, maxMessages = N, maxTokens = N × ${int(TOKENS_PER_MESSAGE_BUDGET)}` +
    ' (the count rule trims)',
);
printHeader();
for (const config of COUNT_BOUND) measureRow(config);
console.log('');
for (const line of countLines) console.log(line);

console.log('');
console.log(
  `token-bound: maxMessages = ${TOKEN_BOUND_MESSAGE_FACTOR} × N, maxTokens = the stored token total` +
    ' of the first N messages (the token rule trims; window ≈ N messages)',
);
console.log(
  '  maxTokens: ' +
    TOKEN_BOUND.map((c) => `${c.tokenizer} N=${int(c.n)} → ${int(c.maxTokens)}`).join(', '),
);
console.log(
  '  reference port: o200k_base counts what the library counts (text + tool-call names and JSON' +
    ' parameters), so both hold the same window',
);
printHeader();
for (const config of TOKEN_BOUND) measureRow(config);
if (sink < 0) console.log(sink);

console.log('');
for (const config of [...COUNT_BOUND, ...TOKEN_BOUND]) {
  const { countTrims, tokenTrims, boundaryTrims, length, totalTokens } = check(config);
  console.log(
    `check ${config.group} ${config.tokenizer.padEnd(10)} N=${String(config.n).padEnd(6)} ` +
      `${CHECK_ADDS} adds: count rule trimmed on ${countTrims}, boundary rule on ${boundaryTrims}, ` +
      `token rule on ${tokenTrims}; final window ${length} messages, ${int(totalTokens)} tokens` +
      `${config.group === 'token-bound' ? ` (max ${int(config.maxTokens)})` : ''}` +
      ', identical to the reference port',
  );
}
console.log('');
// The provider-safe policy against the reference policy, in the same run: strict tool groups
// matched by id plus a pinned system prompt. Target: within 1.5× per add.
const STRICT_RATIO_TARGET = 1.5;
console.log(
  `policies (count-bound, heuristic): toolPairs 'strict' + pinSystem (a pinned system prompt first) against the reference policy; target strict/reference ≤ ${STRICT_RATIO_TARGET}`,
);
for (const n of [1_000, 10_000]) {
  const reference = countBound(n, 'heuristic');
  const strict: WindowConfig = { ...reference, policy: 'strict' };
  const probeStrict = oursRunner(strict, at);
  const [referenceStats, strictStats] = measure([
    oursRunner(reference, at).run,
    probeStrict.run,
  ]) as [Stats, Stats];
  const window = probeStrict.current();
  if (window.messages[0]?.role !== 'system' || window.messages.length > n) {
    throw new Error(`strict N=${n}: the pinned system prompt left, or the window grew`);
  }
  const ratio = strictStats.median / referenceStats.median;
  console.log(
    `  N=${int(n).padEnd(6)} reference ${cell(referenceStats)} µs · strict + pinSystem ${cell(strictStats)} µs · ` +
      `strict/reference ${ratio.toFixed(2)} (${verdict(ratio, STRICT_RATIO_TARGET)})`,
  );
}

console.log('');
// Trimming in steps against today's trim, in the same run: amortized per add, goal ≤ 1.
const TRIM_TO = 0.7;
console.log(
  `trimTo ${TRIM_TO} (one step down to ${TRIM_TO} × the limits when one binds) against trimTo 1 (today), N = 1,000, heuristic; goal trimTo ${TRIM_TO} / trimTo 1 ≤ 1 (amortized)`,
);
for (const today of [countBound(1_000, 'heuristic'), tokenBound(1_000, 'heuristic')]) {
  const stepped: WindowConfig = { ...today, trimTo: TRIM_TO };
  const probeStepped = oursRunner(stepped, at);
  const [todayStats, steppedStats] = measure([oursRunner(today, at).run, probeStepped.run]) as [
    Stats,
    Stats,
  ];
  const window = probeStepped.current();
  if (window.messages.length > today.maxMessages || window.totalTokens > today.maxTokens) {
    throw new Error(`trimTo ${TRIM_TO} (${today.group}): the window passed a limit`);
  }
  // Untimed: the steps of CHECK_ADDS adds from the starting window (today trims on most adds).
  let steps = 0;
  let state = memoryFor(stepped, at);
  for (let i = stepped.n; i < stepped.n + CHECK_ADDS; i++) {
    const added = addMessage(state, at(i));
    if (added.effects.some((effect) => effect.type === 'memory/trimmed')) steps++;
    state = added.state;
  }
  if (steps === 0) throw new Error(`trimTo ${TRIM_TO} (${today.group}): the window never stepped`);
  const ratio = steppedStats.median / todayStats.median;
  console.log(
    `  ${today.group.padEnd(11)} trimTo 1 ${cell(todayStats)} µs · trimTo ${TRIM_TO} ${cell(steppedStats)} µs · ` +
      `ratio ${ratio.toFixed(2)} (${verdict(ratio, 1)}); ${steps} trims in ${CHECK_ADDS} adds`,
  );
}

console.log('');
// One pathological message: a 100,000-character run with no whitespace (a pasted blob, a long
// hash). gpt-tokenizer's BPE is quadratic on one long pre-token; the library counts such runs
// in 256-character pieces. Ours is the median of 5 adds of fresh texts (a single add also times
// the JIT and whatever garbage the rows above left); gpt-tokenizer's own count is one timing.
{
  const blob = 'x'.repeat(100_000);
  const memory = createMemory({ tokenizer: 'o200k_base' });
  const timings: number[] = [];
  let added = memory;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    added = addMessage(memory, { role: 'tool', content: `${blob}${k}`, toolCallId: 'c1' }).state;
    timings.push(performance.now() - t0);
  }
  const ours = timings.sort((a, b) => a - b)[2] as number;
  const t1 = performance.now();
  const direct = countTokens(blob, { disallowedSpecial: new Set() });
  const alone = performance.now() - t1;
  console.log(
    `one message of 100,000 "x" (o200k_base): addMessage ${ours.toFixed(1)} ms (median of 5) (${int(added.totalTokens)} tokens); ` +
      `gpt-tokenizer countTokens on it ${alone.toFixed(0)} ms (${int(direct)} tokens)`,
  );
}
console.log('');
console.log(`done in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
