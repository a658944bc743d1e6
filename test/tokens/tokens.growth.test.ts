import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from 'conversation-memory/tokens';

/**
 * Growth check, not a performance target: for each kind of long run, counting 8n characters must
 * take well under 64 times as long as counting n characters (the quadratic BPE gives about 64; a
 * linear count gives about 8: the bound, 24, is three times linear, so a busy machine's pauses
 * do not fail it, and still well under quadratic). Only the ratio of two timings on the same machine is asserted, so a
 * slow or busy machine does not fail it; absolute figures are in the benchmark (`npm run bench`).
 *
 * Noise is kept down by timing batches of calls (calibrated to last at least 10 ms at n, then the
 * same batch size at 8n) and taking the fastest of several batches; a ratio over the bound is
 * measured again (five times at most) before it fails. Every call counts a different
 * text (a different length or seed), so gpt-tokenizer's cache of pre-token results cannot turn a
 * quadratic one-shot count into a cache hit.
 */

const N = 20_000;
const REPEATS = 5;
const MIN_BATCH_MS = 10;
const MAX_BATCH = 256;
/** How much longer the long text is than the short one. */
const SCALE = 8;
/** Quadratic growth gives about 64, linear about 8. */
const MAX_RATIO = 24;

/**
 * Empties gpt-tokenizer's caches of pre-token results (the instances the library loads through
 * Node's require), so that each case starts alike: a cache filled by the cases before it slows
 * its lookups, which otherwise shows as noise in the cheap cases.
 */
const clearMergeCaches = (): void => {
  const require = createRequire(import.meta.url);
  for (const encoding of ['o200k_base', 'cl100k_base', 'r50k_base']) {
    (
      require(`gpt-tokenizer/encoding/${encoding}`) as { clearMergeCache(): void }
    ).clearMergeCache();
  }
};

/** A small deterministic generator (mulberry32), so that each text differs by its seed. */
const random = (seed: number): (() => number) => {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A run of `length` characters drawn from `chars`; variant `v` differs from every other. */
const drawn =
  (chars: string) =>
  (length: number, variant: number): string => {
    const next = random(variant + 1);
    let text = '';
    for (let i = 0; i < length; i++) text += chars[Math.floor(next() * chars.length)];
    return text;
  };

/** A run of one repeated unit; variant `v` is `v` units longer (at most about 1,400 here). */
const repeated =
  (unit: string) =>
  (length: number, variant: number): string =>
    unit.repeat(Math.ceil(length / unit.length) + variant);

interface RunCase {
  readonly run: string;
  readonly model: string;
  readonly make: (length: number, variant: number) => string;
}

const CASES: readonly RunCase[] = [
  { run: 'spaces', model: 'gpt-4o', make: (n, v) => `a${repeated(' ')(n, v)}b` },
  { run: 'newlines', model: 'gpt-4o', make: (n, v) => `a${repeated('\n')(n, v)}b` },
  { run: 'tabs', model: 'gpt-4', make: (n, v) => `a${repeated('\t')(n, v)}b` },
  {
    run: 'U+00A0 no-break spaces',
    model: 'gpt-4o',
    make: (n, v) => `a${repeated('\u00a0')(n, v)}b`,
  },
  {
    run: 'U+3000 ideographic spaces',
    model: 'gpt-4',
    make: (n, v) => `a${repeated('\u3000')(n, v)}b`,
  },
  {
    run: 'mixed whitespace',
    model: 'gpt-4o',
    make: (n, v) => `a${drawn(' \t\n\r\u00a0\u2003\u2028\u3000')(n, v)}b`,
  },
  { run: 'random letters', model: 'gpt-4o', make: drawn('abcdefghijklmnopqrstuvwxyzäöü') },
  { run: 'punctuation', model: 'gpt-4', make: drawn('!?.,;:-_=+*&^%$#@~|<>') },
  {
    run: 'a "/\\n" tail after punctuation',
    model: 'gpt-4o',
    make: (n, v) => `!${repeated('/\n')(n, v)}`,
  },
  { run: 'digits (r50k)', model: 'davinci', make: drawn('0123456789') },
];

/** The fastest of several batches of `batch` calls, each on its own text, in ms per call. */
const timePerCall = (
  runCase: RunCase,
  length: number,
  batch: number,
  firstVariant: number,
): number => {
  let best = Infinity;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const texts = Array.from({ length: batch }, (_, i) =>
      runCase.make(length, firstVariant + repeat * batch + i),
    );
    const started = performance.now();
    for (const text of texts) estimateTokens(text, runCase.model);
    best = Math.min(best, performance.now() - started);
  }
  return best / batch;
};

describe('counting time grows linearly with the length of a run', () => {
  it.each(CASES)('$run', (runCase) => {
    clearMergeCaches();
    estimateTokens(runCase.make(2_000, 0), runCase.model); // load the encoding, warm up
    let batch = 1;
    let variant = 1; // calibration texts: variants 1 to 511; measured texts: from 600 on

    for (;;) {
      const texts = Array.from({ length: batch }, (_, i) => runCase.make(N, variant + i));
      variant += batch;
      const started = performance.now();
      for (const text of texts) estimateTokens(text, runCase.model);
      if (performance.now() - started >= MIN_BATCH_MS || batch >= MAX_BATCH) break;
      batch *= 2;
    }
    // Up to five measurements, the lowest ratio kept: a pause of another process (or a GC) can
    // double one timing, but a quadratic count gives about 64 every time.
    let best = { ratio: Infinity, shown: '' };
    for (let attempt = 0; attempt < 5 && best.ratio >= MAX_RATIO; attempt++) {
      // The same texts again: the caches are emptied so that none of them is a cache hit.
      if (attempt > 0) clearMergeCaches();
      const small = timePerCall(runCase, N, batch, 600);
      const large = timePerCall(runCase, SCALE * N, batch, 600);
      if (large / small < best.ratio) {
        best = {
          ratio: large / small,
          shown: `${(small * 1000).toFixed(0)} µs at ${N}, ${(large * 1000).toFixed(0)} µs at ${SCALE * N}`,
        };
      }
    }
    expect(best.ratio, best.shown).toBeLessThan(MAX_RATIO);
  });
});
