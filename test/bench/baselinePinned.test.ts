import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rootDir } from '../support/markdown';

/**
 * `npm run bench` ends with bench/baseline.bench.ts, which times today's add against ONE pinned
 * baseline (`bench/baseline/core-<commit>.js`) and stops when there is not exactly one. An extra
 * bundle left by an A/B (`node scripts/pinBaseline.mjs <commit>`) fails here, in `npm test`,
 * instead of at the end of a long benchmark run.
 */
describe('the pinned baseline', () => {
  it('bench/baseline/ holds exactly one core-<commit>.js', () => {
    const pinned = readdirSync(`${rootDir}bench/baseline`).filter((name) =>
      /^core-[0-9a-f]+\.js$/.test(name),
    );
    expect(pinned, pinned.join(', ')).toHaveLength(1);
  });
});
