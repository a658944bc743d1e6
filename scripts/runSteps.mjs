#!/usr/bin/env node
/**
 * Runs `npm test`'s steps in order (`npm run <step>` each), stops at the first that fails, and
 * prints how long each took, so that a step that grows shows in every run's log (the test steps
 * also print their ten slowest files).
 *
 * Usage: `node scripts/runSteps.mjs typecheck lint test:unit ...` (package.json's "test").
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const steps = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const times = [];
let failed;
for (const step of steps) {
  const t0 = performance.now();
  const { status, signal } = spawnSync(npm, ['run', step], { stdio: 'inherit' });
  times.push([step, (performance.now() - t0) / 1000]);
  if (status !== 0) {
    failed = `${step} ${signal === null ? `exited with ${status}` : `was killed by ${signal}`}`;
    break;
  }
}
const total = times.reduce((sum, [, seconds]) => sum + seconds, 0);
const rows = times.map(([step, seconds]) => `  ${seconds.toFixed(1).padStart(6)} s  ${step}`);
process.stdout.write(`\nSteps:\n${rows.join('\n')}\n  ${total.toFixed(1).padStart(6)} s  in all\n`);
if (failed !== undefined) {
  process.stderr.write(`npm test: ${failed}\n`);
  process.exit(1);
}
