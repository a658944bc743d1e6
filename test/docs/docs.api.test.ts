import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageEntries } from '../../scripts/packageEntries.js';
import { rootDir } from '../support/markdown';

/**
 * `npm run docs` (TypeDoc, typedoc.json) documents every public entry point: each subpath of
 * package.json's `exports`, built by tsup.config.ts from a source file, and nothing else (not the
 * internal shared `library` chunk, not the command-line tool). A new subpath forgotten in
 * typedoc.json fails here. TypeDoc itself runs in `npm test` with `treatWarningsAsErrors`.
 */
const read = (file: string): string => readFileSync(`${rootDir}${file}`, 'utf8');

/** tsup.config.ts's entries, `name: 'src/…'`, by built file name. */
const tsupEntries = (): ReadonlyMap<string, string> =>
  new Map(
    [...read('tsup.config.ts').matchAll(/^\s*'?([\w-]+)'?: '(src\/[^']+\.ts)'/gm)].map((match) => [
      match[1] ?? '',
      match[2] ?? '',
    ]),
  );

describe('API reference', () => {
  it('typedoc.json documents every subpath of the package, under its import name', () => {
    const pkg = JSON.parse(read('package.json')) as {
      exports: Record<string, string | { import: { default: string } }>;
    };
    const entries = tsupEntries();
    const subpaths = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
      if (typeof target === 'string') return [];
      const built = /^\.\/dist\/([\w-]+)\.js$/.exec(target.import.default)?.[1] ?? '';
      return [{ subpath, source: entries.get(built) ?? `no tsup entry for ${built}` }];
    });
    expect(subpaths.length).toBeGreaterThan(5);
    const typedoc = JSON.parse(read('typedoc.json')) as {
      entryPoints: string[];
      treatWarningsAsErrors: boolean;
    };
    expect([...typedoc.entryPoints].sort()).toEqual(subpaths.map(({ source }) => source).sort());
    expect(typedoc.treatWarningsAsErrors).toBe(true);
    // Each entry names its module as it is imported (TypeDoc's `@module`), not by its file.
    for (const { subpath, source } of subpaths) {
      const name = `conversation-memory${subpath.slice(1)}`;
      expect(read(source), source).toContain(` * @module ${name}\n`);
    }
    // tsconfig.json's `paths` (what TypeScript, the tests and the layer rule resolve the names
    // with) maps each name to the file tsup builds it from, and every entry file is in src/entries/.
    const paths = packageEntries(rootDir);
    expect([...paths].map(([name, file]) => [name, file.slice(rootDir.length)]).sort()).toEqual(
      subpaths
        .map(({ subpath, source }) => [`conversation-memory${subpath.slice(1)}`, source])
        .sort(),
    );
    for (const { source } of subpaths) expect(source).toMatch(/^src\/entries\//);
  });
});
