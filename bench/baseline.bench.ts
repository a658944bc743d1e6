/**
 * Pinned-baseline benchmark: today's built library against a fixed earlier build, so that a
 * slowdown shows against the same baseline every time, not only against yesterday's commit (each
 * release's own A/B compared with the commit just before, and a drift could add up unseen).
 *
 * Run: `npm run bench` (after the build; this is its last step), or on its own after
 * `npm run build`: `NODE_ENV=production tsx bench/baseline.bench.ts [ROUNDS]`.
 *
 * The baseline is `bench/baseline/core-<commit>.js`, a bundle of that commit's `createMemory` and
 * `addMessage` made by `node scripts/pinBaseline.mjs <commit>` (bench/baseline/README.md says
 * which commit and why). Today's is `dist/library.js`.
 *
 * Method. Each row is one configuration: the message cap at 20, 1,000 and 10,000 messages
 * (heuristic tokens, the reference policy), a token-bound window of about 1,000, the provider-safe
 * policy at 1,000, and o200k counting at 1,000. An add is `addMessage(state, message).state` with a
 * plain-object message from the fixture (`bench/fixtures.ts`, cycled). Every series runs in a
 * Node process of its own (`bench/baseline/measure.mjs`: fill the window, calibrate to batches of
 * about 30 ms, warm up, then 11 timed batches, median per add), so neither build's garbage or JIT
 * state weighs on the other; the two builds alternate, ROUNDS times per row (default 5, the order
 * swapped each round). The figure is the median of the rounds' medians, with their min and max.
 *
 * Check. A row whose ratio (today / baseline) is above 1.5 fails the run (exit code 1): the size
 * of drift this was made to catch, well above what this machine's noise does to a median of five
 * process medians. Above 1.2 it is marked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateConversation } from './fixtures';
import { medianOf } from './stats';

const ROUNDS = Number(process.argv[2] ?? 5);
const BATCHES = 11;
const FAIL_RATIO = 1.5;
const MARK_RATIO = 1.2;

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const today = new URL('../dist/library.js', import.meta.url).href;
if (!existsSync(fileURLToPath(today))) throw new Error('dist/library.js is missing: npm run build');
const pinned = readdirSync(here('./baseline')).filter((name) => /^core-[0-9a-f]+\.js$/.test(name));
if (pinned.length !== 1)
  throw new Error(`bench/baseline/ must hold one core-<commit>.js, has ${pinned.length}`);
const baselineFile = pinned[0] as string;
const baseline = new URL(`./baseline/${baselineFile}`, import.meta.url).href;

/** A row: a name, the window size and the memory config (plus a pinned system prompt). */
interface Row {
  readonly name: string;
  readonly n: number;
  readonly memory: Record<string, unknown>;
  readonly systemPrompt?: string;
}

const pool = generateConversation(4_000);
/** The heuristic token total of the first `n` messages (what both builds count: floor(len / 4)). */
const heuristicTokens = (n: number): number =>
  pool.slice(0, n).reduce((sum, m) => {
    const calls = (m.toolCalls ?? []).map((c) => c.name + JSON.stringify(c.parameters)).join('');
    return sum + Math.floor(((m.content ?? '') + calls).length / 4);
  }, 0);

const rows: readonly Row[] = [
  { name: 'cap 20, heuristic', n: 20, memory: { maxMessages: 20, tokenizer: 'heuristic' } },
  {
    name: 'cap 1,000, heuristic',
    n: 1_000,
    memory: { maxMessages: 1_000, tokenizer: 'heuristic' },
  },
  {
    name: 'cap 10,000, heuristic',
    n: 10_000,
    memory: { maxMessages: 10_000, tokenizer: 'heuristic' },
  },
  {
    name: 'tokens ~1,000, heuristic',
    n: 1_000,
    memory: { maxMessages: 10_000, maxTokens: heuristicTokens(1_000), tokenizer: 'heuristic' },
  },
  {
    name: 'cap 1,000, provider-safe',
    n: 1_000,
    memory: { maxMessages: 1_000, tokenizer: 'heuristic', toolPairs: 'strict', pinSystem: true },
    systemPrompt: 'You are a travel assistant.',
  },
  { name: 'cap 1,000, o200k', n: 1_000, memory: { maxMessages: 1_000, tokenizer: 'o200k_base' } },
];

const dir = mkdtempSync(join(tmpdir(), 'cm-baseline-'));
const fixture = join(dir, 'fixture.json');
writeFileSync(fixture, JSON.stringify(pool));

/** One series in a process of its own: the median µs per add. */
const series = (library: string, row: Row): number => {
  const config = JSON.stringify({ memory: row.memory, systemPrompt: row.systemPrompt });
  const result = spawnSync(
    process.execPath,
    [here('./baseline/measure.mjs'), library, fixture, config, String(row.n), String(BATCHES)],
    { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error(`measure.mjs failed for ${row.name}: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { median: number }).median;
};

const format = (stats: { median: number; min: number; max: number }): string =>
  `${stats.median.toFixed(2)} [${stats.min.toFixed(2)}–${stats.max.toFixed(2)}]`;

console.log(`pinned baseline: bench/baseline/${baselineFile}; today: dist/library.js`);
console.log(`µs per add, median of ${ROUNDS} process medians [min–max], builds alternating\n`);
console.log('| row | baseline | today | today / baseline |');
console.log('|---|---:|---:|---:|');
const failures: string[] = [];
try {
  for (const row of rows) {
    const before: number[] = [];
    const after: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        before.push(series(baseline, row));
        after.push(series(today, row));
      } else {
        after.push(series(today, row));
        before.push(series(baseline, row));
      }
    }
    const b = medianOf(before);
    const a = medianOf(after);
    const ratio = a.median / b.median;
    const mark = ratio > FAIL_RATIO ? ' ✗ slower' : ratio > MARK_RATIO ? ' ! slower' : '';
    if (ratio > FAIL_RATIO) failures.push(`${row.name}: ${ratio.toFixed(2)}×`);
    console.log(`| ${row.name} | ${format(b)} | ${format(a)} | ${ratio.toFixed(2)}${mark} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(
    `\nslower than the pinned baseline by more than ${FAIL_RATIO}×: ${failures.join('; ')}`,
  );
  process.exitCode = 1;
}
