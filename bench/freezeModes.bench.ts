/**
 * What window freezing costs: the per-add cost of `addMessage` on a full window, with the built
 * `dist/` loaded under `NODE_ENV=development` (whole windows frozen on every add, which walks the
 * window) and under `production` and unset (only the new message and state record are frozen).
 *
 * Run: `npm run bench:freeze` (builds first). Each mode runs in its own process, since the mode
 * is read once when the library loads. Messages are made by `userMessage` (already canonical),
 * tokenizer `'heuristic'`, so the figures isolate the window. Median of 9 batches.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type * as Library from '../src/library';

const SIZES = [20, 1_000, 10_000] as const;

const measure = async (): Promise<void> => {
  const entry = new URL('../dist/library.js', import.meta.url).href;
  const library = (await import(entry)) as typeof Library;
  const { addMessage, addMessages, createMemory, userMessage } = library;
  const results: Record<number, number> = {};
  for (const n of SIZES) {
    const pool = Array.from({ length: n + 4_000 }, (_, i) =>
      userMessage(`message ${i}: some text`),
    );
    let state = addMessages(
      createMemory({ tokenizer: 'heuristic', maxMessages: n }),
      pool.slice(0, n),
    ).state;
    let next = n;
    const adds = n >= 10_000 ? 200 : 2_000;
    const samples: number[] = [];
    for (let batch = 0; batch < 9; batch++) {
      const start = performance.now();
      for (let i = 0; i < adds; i++) {
        state = addMessage(state, pool[next++ % pool.length] as (typeof pool)[number]).state;
      }
      samples.push(((performance.now() - start) / adds) * 1_000);
    }
    samples.sort((a, b) => a - b);
    results[n] = samples[4] as number;
  }
  process.stdout.write(JSON.stringify(results));
};

if (process.env['FREEZE_BENCH_CHILD'] === '1') {
  await measure();
} else {
  const self = fileURLToPath(import.meta.url);
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  console.log(
    'per-add cost (µs, median of 9 batches), heuristic tokenizer, canonical messages, dist/',
  );
  console.log(
    `${'NODE_ENV'.padEnd(12)}${SIZES.map((n) => `N=${n.toLocaleString('en')}`.padStart(12)).join('')}`,
  );
  for (const mode of ['development', 'production', '']) {
    const env: NodeJS.ProcessEnv = { ...process.env, FREEZE_BENCH_CHILD: '1', NODE_ENV: mode };
    const out = JSON.parse(execFileSync(tsx, [self], { env, encoding: 'utf8' })) as Record<
      string,
      number
    >;
    const label = mode === '' ? '(unset)' : mode;
    console.log(
      `${label.padEnd(12)}${SIZES.map((n) => (out[n] ?? NaN).toFixed(2).padStart(12)).join('')}`,
    );
  }
}
