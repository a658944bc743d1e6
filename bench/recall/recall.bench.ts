/**
 * The recall benchmark (`npm run bench:recall`; see bench/recall/README.md): deterministic and
 * offline. Writes bench/results/recall.md.
 *
 * Flags:
 * - `--sizes 50,500`: history sizes in sessions (default both);
 * - `--questions N`: questions per size (default 120);
 * - `--budgets 4000,16000,64000`: view budgets in tokens (default these);
 * - `--write data.json`: write the dataset in LongMemEval's JSON shape (an array of instances,
 *   each with its whole haystack) and exit.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type * as Library from '../../src/library';
import { generateGroups, instancesOf } from './dataset';
import { writeResult } from '../knowledge/writeResult';
import { runRecallBench } from './recallRun';
import { recallTables } from './recallTable';

const DIST: string = new URL('../../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../../src/library')
) as typeof Library;

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const numbers = (name: string, fallback: readonly number[]): number[] => {
  const value = flag(name);
  if (value === undefined) return [...fallback];
  const list = value.split(',').map(Number);
  if (list.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new Error(`--${name} must be positive integers separated by commas, received ${value}`);
  }
  return list;
};

const sessions = numbers('sizes', [50, 500]);
const [questions] = numbers('questions', [120]) as [number];
const budgets = numbers('budgets', [4_000, 16_000, 64_000]);
/**
 * Questions per shared history (LongMemEval gives each question a history of its own): few
 * enough that a history holds one fact of a kind (see `generateGroups`).
 */
const perHistory = (size: number) => (size <= 50 ? 5 : 6);
const sizes = sessions.map((size) => ({ sessions: size, questions, perHistory: perHistory(size) }));

const write = flag('write');
if (write !== undefined) {
  const instances = sizes.flatMap((size) => instancesOf(generateGroups(size)));
  writeFileSync(write, `${JSON.stringify(instances)}\n`);
  console.log(`wrote ${instances.length} instances to ${write}`);
  process.exit(0);
}

const started = performance.now();
const { outcomes } = await runRecallBench(lib, {
  sizes,
  budgets,
  onHistory: (size, done, of) =>
    console.log(
      `${size} sessions: history ${done} of ${of} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    ),
});
const tables = recallTables(outcomes);
const text = [
  '# Recall benchmark',
  '',
  'Written by `npm run bench:recall` (bench/recall/recall.bench.ts; method and limits in',
  'bench/recall/README.md). Evidence recall: the share of questions whose view holds every',
  'evidence key (the latest value for a knowledge update). Abstention: the share whose view states',
  'no answer (100% by construction: no history states one and no policy here writes text), then',
  'the share that shows the near miss its sessions state.',
  '',
  tables,
].join('\n');
await writeResult('recall.md', text);
console.log(`\n${tables}`);
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
