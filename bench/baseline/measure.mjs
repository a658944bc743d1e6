/**
 * One series of the pinned-baseline comparison (`bench/baseline.bench.ts` spawns it): loads one
 * build of the library, fills a window of `n` messages with the given config, then times
 * `batches` batches of adds of plain-object messages (the fixture's, cycled) and prints the
 * per-add median and every batch as JSON on stdout. Plain Node, no tsx, so both builds run under
 * the same loader.
 *
 * Usage: `node bench/baseline/measure.mjs LIBRARY_URL FIXTURE_JSON CONFIG_JSON N BATCHES`
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [, , libraryUrl, fixtureFile, configJson, nArg, batchesArg] = process.argv;
const { addMessage, createMemory } = await import(libraryUrl);
const pool = JSON.parse(readFileSync(fixtureFile, 'utf8'));
const config = JSON.parse(configJson);
const n = Number(nArg);
const batches = Number(batchesArg);

let state = createMemory(config.memory);
if (config.systemPrompt !== undefined)
  state = addMessage(state, { role: 'system', content: config.systemPrompt }).state;
let next = 0;
const add = (count) => {
  for (let i = 0; i < count; i++, next++) state = addMessage(state, pool[next % pool.length]).state;
};
add(n);

// Calibrate (which also warms up): double the batch until one takes at least 30 ms.
let size = 8;
for (;;) {
  const t0 = performance.now();
  add(size);
  const ms = performance.now() - t0;
  if (ms >= 30) {
    size = Math.max(8, Math.ceil((size * 30) / ms));
    break;
  }
  size *= 2;
}
add(size);

const samples = [];
for (let b = 0; b < batches; b++) {
  const t0 = performance.now();
  add(size);
  samples.push(((performance.now() - t0) * 1000) / size);
}
const sorted = [...samples].sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({ median: sorted[sorted.length >> 1], samples, window: state.messages.length }),
);
