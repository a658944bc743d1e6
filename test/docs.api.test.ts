import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rootDir } from './support/markdown';

/**
 * `npm run docs` (TypeDoc, typedoc.json) documents every public entry point: the files of
 * tsup.config.ts's `entry`, except the command-line tool. A new subpath added to the build and
 * forgotten in typedoc.json fails here. TypeDoc itself runs in `npm test` with
 * `treatWarningsAsErrors`.
 */
const read = (file: string): string => readFileSync(`${rootDir}${file}`, 'utf8');

describe('API reference', () => {
  it('typedoc.json documents every built entry point but the cli', () => {
    const tsup = read('tsup.config.ts');
    const entry = tsup.slice(
      tsup.indexOf('entry: {'),
      tsup.indexOf('},', tsup.indexOf('entry: {')),
    );
    const built = [...entry.matchAll(/^\s*'?([\w-]+)'?: '(src\/[^']+)'/gm)]
      .filter((match) => match[1] !== 'cli')
      .map((match) => match[2]);
    expect(built.length).toBeGreaterThan(5);
    const typedoc = JSON.parse(read('typedoc.json')) as {
      entryPoints: string[];
      treatWarningsAsErrors: boolean;
    };
    expect([...typedoc.entryPoints].sort()).toEqual([...built].sort());
    expect(typedoc.treatWarningsAsErrors).toBe(true);
  });
});
