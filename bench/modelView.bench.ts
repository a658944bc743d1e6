/**
 * Model view benchmark (run by `npm run bench`; built `dist/`, NODE_ENV=production): what
 * building the view of the next call costs, beside reading the window.
 *
 * Windows of 20, 1,000 and 10,000 messages of the fixed-seed conversation (`fixtures.ts`: user
 * questions, answers, tool-call turns with their results), held by the provider-safe policy
 * (`toolPairs: 'strict'`, so the window is valid and the view has nothing to repair; heuristic
 * tokens), with a summary (so the view injects one message). Per call:
 *
 * - `getHistory`: the window as the selector returns it (no copy);
 * - copy: `getHistory(state).slice()`, what sending the window costs at least;
 * - `modelView` for `'openai'` and `'anthropic'`, and for `'openai'` with a budget the window
 *   exceeds by about a quarter (so it leaves out the oldest groups);
 * - the reference policy's window (an orphan result at its head now and then: the view repairs);
 * - `'openai'` with that budget and masking of stale tool output: by count
 *   (`maskToolResults: { keepLast: 2 }`), and to fit (`{ keepLast: 2, untilFits: true }`, which
 *   counts every result and its placeholder).
 *
 * Target: `modelView` within 2× of the copy. Then the streaming overhead per delta: a run of
 * `agent.stream` whose provider streams 5,000 one-word deltas, against iterating the provider's
 * stream alone, per delta.
 *
 * Method: each series calibrates (doubling the batch until ≥ 20 ms), warms up, then 11 batches,
 * interleaved; median [min–max] per call (2 shared, noisy cores).
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { CompletionStreamPart, MemoryState, Provider } from '../src/entries/index';
import { generateConversation } from './fixtures';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const fmt = (us: number): string =>
  us < 10 ? us.toFixed(2) : us < 1000 ? us.toFixed(1) : Math.round(us).toString();

let sink = 0;

/** Per-call µs of each series, interleaved batch by batch. */
const measure = (series: Record<string, () => void>): Record<string, number[]> => {
  const names = Object.keys(series);
  const batch: Record<string, number> = {};
  for (const name of names) {
    const run = series[name] as () => void;
    let n = 1;
    for (;;) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) run();
      if (performance.now() - t0 >= 20) break;
      n *= 2;
    }
    batch[name] = n;
    for (let i = 0; i < n; i++) run();
  }
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < 11; round++) {
    for (const name of names) {
      const run = series[name] as () => void;
      const n = batch[name] as number;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) run();
      samples[name]?.push(((performance.now() - t0) * 1000) / n);
    }
  }
  return samples;
};

const windowOf = (size: number, toolPairs: 'strict' | 'reference'): MemoryState => {
  let state = lib.createMemory({ maxMessages: size, tokenizer: 'heuristic', toolPairs });
  state = lib.addMessages(state, generateConversation(size + 7)).state;
  return lib.setSummary(state, 'The user is Ada; she asked about rates.').state;
};

console.log('\nmodelView: per call, median [min–max] µs (target: modelView ≤ 2× copy)\n');
console.log(
  '| window | getHistory | copy | openai | anthropic | openai + budget | reference policy | budget + masking | budget + masking to fit | openai / copy |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const size of [20, 1_000, 10_000]) {
  const strict = windowOf(size, 'strict');
  const reference = windowOf(size, 'reference');
  const budget = Math.floor(strict.totalTokens * 0.75);
  // Check: the views are valid and the budget bites.
  const view = lib.modelView(strict, { target: 'openai' });
  if (lib.validateTranscript(view.messages, 'openai').length > 0) throw new Error('invalid view');
  const fitted = lib.modelView(strict, { target: 'openai', budget });
  if ((fitted.tokens ?? Infinity) > budget) throw new Error('the budget did not bite');
  const samples = measure({
    getHistory: () => void (sink += lib.getHistory(strict).length),
    copy: () => void (sink += lib.getHistory(strict).slice().length),
    openai: () => void (sink += lib.modelView(strict, { target: 'openai' }).messages.length),
    anthropic: () => void (sink += lib.modelView(strict, { target: 'anthropic' }).messages.length),
    budget: () =>
      void (sink += lib.modelView(strict, { target: 'openai', budget }).messages.length),
    reference: () => void (sink += lib.modelView(reference, { target: 'openai' }).messages.length),
    mask: () =>
      void (sink += lib.modelView(strict, {
        target: 'openai',
        budget,
        maskToolResults: { keepLast: 2 },
      }).messages.length),
    fit: () =>
      void (sink += lib.modelView(strict, {
        target: 'openai',
        budget,
        maskToolResults: { keepLast: 2, untilFits: true },
      }).messages.length),
  });
  const cell = (name: string) => {
    const s = medianOf(samples[name] as number[]);
    return `${fmt(s.median)} [${fmt(s.min)}–${fmt(s.max)}]`;
  };
  const ratio =
    medianOf(samples['openai'] as number[]).median / medianOf(samples['copy'] as number[]).median;
  console.log(
    `| ${size.toLocaleString('en')} | ${cell('getHistory')} | ${cell('copy')} | ${cell('openai')} | ${cell('anthropic')} | ${cell('budget')} | ${cell('reference')} | ${cell('mask')} | ${cell('fit')} | ${ratio.toFixed(2)}× |`,
  );
}

// Streaming overhead per delta.
const DELTAS = 5_000;
const words = Array.from({ length: DELTAS }, (_, i) => `w${i} `);
const text = words.join('');
const streamer: Provider = {
  name: 'bench',
  defaultModel: 'bench-1',
  complete: async () => ({ message: { role: 'assistant', content: text } }),
  async *stream(): AsyncIterable<CompletionStreamPart> {
    for (const word of words) yield { type: 'text-delta', text: word };
    yield { type: 'finish', result: { message: { role: 'assistant', content: text } } };
  },
};
const timeAsync = async (run: () => Promise<void>): Promise<number> => {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
};
const raw: number[] = [];
const streamed: number[] = [];
for (let round = 0; round < 13; round++) {
  raw.push(
    await timeAsync(async () => {
      for await (const part of (streamer.stream as NonNullable<Provider['stream']>)({
        model: 'bench-1',
        systemPrompt: '',
        messages: [],
      }))
        sink += part.type.length;
    }),
  );
  const agent = lib.createAgent({ provider: streamer });
  streamed.push(
    await timeAsync(async () => {
      for await (const event of agent.stream('go')) sink += event.type.length;
    }),
  );
}
const perDelta = (samples: number[]) =>
  medianOf(samples.slice(2).map((ms) => (ms * 1000) / DELTAS));
const r = perDelta(raw);
const s = perDelta(streamed);
console.log(`\nstreaming: ${DELTAS.toLocaleString('en')} deltas, per delta, median [min–max] µs\n`);
console.log('| provider stream alone | agent.stream | overhead per delta |');
console.log('|---|---|---|');
console.log(
  `| ${fmt(r.median)} [${fmt(r.min)}–${fmt(r.max)}] | ${fmt(s.median)} [${fmt(s.min)}–${fmt(s.max)}] | ${fmt(s.median - r.median)} |`,
);
if (sink === 0) console.log('');
