/**
 * Recall benchmark (run by `npm run bench`; built `dist/`, NODE_ENV=production): what a model
 * view with `recall` costs beside one without, with 10,000 and 1,000,000 trimmed messages
 * (issue #32, goal: within 2× at 1,000,000).
 *
 * The trimmed history: fixed-seed chat messages of 8 to 30 words drawn from a Zipf-distributed
 * vocabulary (200 common chat words first, then 30,000 rarer ones: `s = 1.05`, the shape of
 * word frequencies in text), given as the application's kept `{ message, position }` list; the
 * index is built once (its time is reported, not counted per call). The window: 120 messages
 * within a 12,000-token limit (o200k_base). The questions: 64 fixed-seed questions of five to
 * eight words, mixing common and rarer words, each the newest user message.
 *
 * Per call, median [min–max] µs, in two pairs:
 * - A new turn: the question added to the window (`addMessage`) and its first view, without
 *   recall (`budget: 16000`) and with it (`recall: { source, budget: 4000 }`; 64 questions in
 *   turn, so none is remembered). The goal's comparison: what a turn costs with and without.
 * - The same view again (the agent's later model calls of one turn, a chat UI drawn again): the
 *   view without recall is remembered per state, and so is recall's search and block.
 * A last column: a new turn whose question has common words only (among the 200 commonest; at
 * 1,000,000 messages even the rarest of them is held by thousands), whose walk the postings
 * budget caps.
 *
 * Method: as bench/modelView.bench.ts (each series calibrated to ≥ 20 ms batches, warmed up, 11
 * batches interleaved; 2 shared, noisy cores).
 */
import { performance } from 'node:perf_hooks';
import type * as Library from '../src/library';
import type { MemoryState, Message, TranscriptEntry } from '../src/entries/index';
import { medianOf } from './stats';

const DIST: string = new URL('../dist/library.js', import.meta.url).href;
const lib = (
  process.env['BENCH_DIST'] === '1' ? await import(DIST) : await import('../src/library')
) as typeof Library;

const fmt = (us: number): string =>
  us < 10 ? us.toFixed(2) : us < 1000 ? us.toFixed(1) : Math.round(us).toString();

let sink = 0;

/** A small fixed-seed generator (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const COMMON = (
  'train time town weather rain plan trip week day today tomorrow morning evening work job boss ' +
  'meeting project email phone call friend family sister brother mother father cousin kid dog cat ' +
  'car bike bus flight hotel booking ticket price money budget bill bank card shop store buy sale ' +
  'food dinner lunch breakfast recipe cook pasta pizza coffee tea cake bakery restaurant menu ' +
  'movie book music song concert show game team match gym run walk yoga doctor dentist health ' +
  'sleep house home room kitchen garden plant water light power internet laptop app code bug test ' +
  'release deploy server data file report note list idea question answer help thanks sorry good ' +
  'great nice bad late early long short big small new old first last next place city park beach ' +
  'museum school class exam teacher student course lesson gift party birthday wedding holiday ' +
  'summer winter spring autumn month year weekend night hour minute address street map route'
).split(' ');

/** The vocabulary by rank: the common words, then 30,000 rarer ones. */
const VOCABULARY: readonly string[] = [
  ...COMMON,
  ...Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}x`),
];

/** Zipf's law over the vocabulary (s = 1.05): cumulative weights, for drawing by binary search. */
const cumulative = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / Math.pow(rank + 1, 1.05));
  let total = 0;
  return weights.map((w) => (total += w)).map((c) => c / total);
})();

const drawWord = (next: () => number): string => {
  const u = next();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((cumulative[mid] as number) < u) low = mid + 1;
    else high = mid;
  }
  return VOCABULARY[low] as string;
};

const sentence = (next: () => number, min: number, max: number): string => {
  const n = min + Math.floor(next() * (max - min + 1));
  return Array.from({ length: n }, () => drawWord(next)).join(' ');
};

const chatMessage = (next: () => number, i: number): Message =>
  i % 2 === 0
    ? lib.userMessage(sentence(next, 8, 30))
    : lib.assistantMessage(sentence(next, 8, 30));

const trimmedHistory = (count: number): TranscriptEntry[] => {
  const next = random(count);
  // Positions past the window's 0–119, so that none is taken for a message the view shows.
  return Array.from({ length: count }, (_, i) => ({
    message: chatMessage(next, i),
    position: 1_000 + i,
  }));
};

/** 64 questions: two or three common words and two to four rarer ones (rank 200 to 5,000). */
const QUESTIONS: readonly string[] = (() => {
  const next = random(64);
  return Array.from({ length: 64 }, () => {
    const common = Array.from(
      { length: 2 + Math.floor(next() * 2) },
      () => COMMON[Math.floor(next() * COMMON.length)],
    );
    const rare = Array.from(
      { length: 2 + Math.floor(next() * 3) },
      () => VOCABULARY[200 + Math.floor(next() * 4_800)],
    );
    return `what about the ${[...common, ...rare].join(' ')}?`;
  });
})();

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

/** The window before the question: 119 chat messages. */
const before: MemoryState = (() => {
  const next = random(7);
  const state = lib.createMemory({ maxMessages: 120, maxTokens: 12_000, tokenizer: 'o200k_base' });
  return lib.addMessages(
    state,
    Array.from({ length: 119 }, (_, i) => chatMessage(next, i)),
  ).state;
})();

/** The window ending with `question`. */
const windowWith = (question: string): MemoryState =>
  lib.addMessage(before, lib.userMessage(question)).state;

/** 64 questions of three common words each (more than recall remembers, so none is). */
const COMMON_QUESTIONS: readonly string[] = Array.from(
  { length: 64 },
  (_, i) =>
    `what about ${COMMON[(i * 7) % COMMON.length]} ${COMMON[(i * 13 + 3) % COMMON.length]} ${COMMON[(i * 29 + 5) % COMMON.length]}?`,
);

console.log(
  '\nmodelView with recall: per call, median [min–max] µs (goal: recall ≤ 2× without at 1,000,000)\n',
);
console.log(
  '| trimmed messages | index built once | a new turn, without recall | a new turn, with recall | ratio | the same view again, without | with recall | ratio | a new turn, common words only |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const states = QUESTIONS.map((question) => windowWith(question));
for (const count of (process.env['RECALL_COUNTS'] ?? '10000,1000000').split(',').map(Number)) {
  const history = trimmedHistory(count);
  const t0 = performance.now();
  const first = lib.modelView(states[0] as MemoryState, {
    budget: 16_000,
    recall: { source: history, budget: 4_000 },
  });
  const built = performance.now() - t0;
  if (!first.changes.some((c) => c.type === 'view/recalled')) throw new Error('nothing recalled');
  if ((first.tokens ?? Infinity) > 16_000) throw new Error('over budget');
  let turn = 0;
  const recall = { source: history, budget: 4_000 };
  const samples = measure({
    turnWithout: () =>
      void (sink += lib.modelView(windowWith(QUESTIONS[turn++ % 64] as string), {
        budget: 16_000,
      }).messages.length),
    turnWith: () =>
      void (sink += lib.modelView(windowWith(QUESTIONS[turn++ % 64] as string), {
        budget: 16_000,
        recall,
      }).messages.length),
    againWithout: () =>
      void (sink += lib.modelView(states[0] as MemoryState, { budget: 16_000 }).messages.length),
    againWith: () =>
      void (sink += lib.modelView(states[0] as MemoryState, { budget: 16_000, recall }).messages
        .length),
    common: () =>
      void (sink += lib.modelView(windowWith(COMMON_QUESTIONS[turn++ % 64] as string), {
        budget: 16_000,
        recall,
      }).messages.length),
  });
  const median = (name: string) => medianOf(samples[name] as number[]).median;
  const cell = (name: string) => {
    const s = medianOf(samples[name] as number[]);
    return `${fmt(s.median)} [${fmt(s.min)}–${fmt(s.max)}]`;
  };
  console.log(
    `| ${count.toLocaleString('en')} | ${(built / 1000).toFixed(1)} s | ${cell('turnWithout')} | ${cell('turnWith')} | ${(median('turnWith') / median('turnWithout')).toFixed(1)}× | ${cell('againWithout')} | ${cell('againWith')} | ${(median('againWith') / median('againWithout')).toFixed(1)}× | ${cell('common')} |`,
  );
}
if (sink === 0) console.log('');
