/**
 * Redundancy pruning benchmark (run by `npm run bench`; built `dist/`, NODE_ENV=production): what
 * one `addMessage` costs under `prune: 'redundant'` against a full window of 1,000 or 10,000
 * messages, next to `prune: 'oldest'` on the same messages. The issue's goal: the per-add cost of
 * the redundancy index is sub-linear in the window (locality-sensitive buckets: an add looks only
 * at the messages that share a bucket with it), so the 10,000 / 1,000 ratio stays well below 10×.
 *
 * Messages: 40-word texts drawn from a 2,000-word vocabulary (two random texts share almost no
 * word 3-shingle), one in ten an exact repeat of a recent message, so the limit binds on every add
 * and the trim removes a redundant message when there is one, else the oldest. `maxMessages` is
 * the window size; the heuristic tokenizer keeps token counting out of the measurement.
 *
 * Method: per sample, a full window of N messages (built outside the timing, its index made by
 * one add), then a chain of 200 adds timed as a whole; 11 samples per series, interleaved;
 * median [min–max] µs per add (2 shared, noisy cores: read the ratios). Prints the table and
 * writes it to `bench/results/pruning.md`.
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { MemoryState, MessageInput } from '../src/library';
import { createRandom } from './fixtures';
import { writeResult } from './knowledge/writeResult';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const STEPS = 200;
const SAMPLES = 11;
const SIZES = [1_000, 10_000] as const;
const POLICIES = ['oldest', 'redundant'] as const;

/** `count` messages: random 40-word texts, every tenth a repeat of one of the previous 50. */
const messagesOf = (count: number, seed: number): MessageInput[] => {
  const random = createRandom(seed);
  const vocabulary = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}x`);
  const out: MessageInput[] = [];
  for (let i = 0; i < count; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    if (i >= 50 && i % 10 === 0) {
      const earlier = out[i - 1 - Math.floor(random() * 49)] as MessageInput;
      out.push({ role, content: earlier.content ?? '' });
      continue;
    }
    const words: string[] = [];
    for (let w = 0; w < 40; w++) words.push(vocabulary[Math.floor(random() * 2_000)] as string);
    out.push({ role, content: words.join(' ') });
  }
  return out;
};

/** A full window of `size` messages under `prune`, its index made (one add after the load). */
const fullWindow = (size: number, prune: 'oldest' | 'redundant', seed: number): MemoryState => {
  const messages = messagesOf(size + 1, seed);
  const loaded = lib.addMessages(
    lib.createMemory({ maxMessages: size, tokenizer: 'heuristic', prune }),
    messages.slice(0, size),
  ).state;
  return lib.addMessage(loaded, messages[size] as MessageInput).state;
};

const samples = new Map<string, number[]>();
for (let sample = 0; sample < SAMPLES; sample++) {
  for (const size of SIZES) {
    for (const prune of POLICIES) {
      let state = fullWindow(size, prune, 7 + sample);
      const incoming = messagesOf(STEPS, 1_000 + sample);
      let redundant = 0;
      const start = performance.now();
      for (const message of incoming) {
        const t = lib.addMessage(state, message);
        state = t.state;
        const trim = t.effects[0];
        if (trim?.type === 'memory/trimmed' && trim.reason === 'enforce_limits') {
          redundant += trim.breakdown.redundant ?? 0;
        }
      }
      const perAdd = ((performance.now() - start) * 1_000) / STEPS;
      if (prune === 'redundant' && redundant === 0) throw new Error('no redundant trim happened');
      if (prune === 'oldest' && redundant !== 0) throw new Error("'oldest' pruned by redundancy");
      const key = `${prune}:${size}`;
      samples.set(key, [...(samples.get(key) ?? []), perAdd]);
    }
  }
}

const cell = (key: string): string => {
  const { median, min, max } = medianOf(samples.get(key) ?? []);
  return `${median.toFixed(1)} [${min.toFixed(1)}–${max.toFixed(1)}]`;
};
const ratio = (prune: string): string =>
  `${(medianOf(samples.get(`${prune}:10000`) ?? []).median / medianOf(samples.get(`${prune}:1000`) ?? []).median).toFixed(1)}×`;

const table = [
  '| prune | 1,000 messages | 10,000 messages | ratio |',
  '|---|---|---|---|',
  ...POLICIES.map(
    (prune) =>
      `| ${prune} | ${cell(`${prune}:1000`)} | ${cell(`${prune}:10000`)} | ${ratio(prune)} |`,
  ),
].join('\n');
const text = `# Redundancy pruning: cost of one add

\`NODE_ENV=production BENCH_DIST=1 npx tsx bench/pruning.bench.ts\` (${SAMPLES} samples of ${STEPS} adds;
µs per add, median [min–max]; a full window, the limit binding on every add, one message in ten an
exact repeat).

${table}
`;
console.log(text);
await writeResult('pruning.md', text);
