import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  codeBlocksOf,
  isTypeScript,
  markdownFiles,
  readMarkdown,
  rootDir,
} from '../support/markdown';

/**
 * The README's tour, and every ```ts run block of the README and of docs/, are executed, so they
 * cannot rot. Each such block becomes a module; every line of the form `expression; // => value`
 * becomes an assertion that the expression deep-equals the value. A `// =>` claim anywhere else
 * (a block that is not run, a value that is not an expression) fails: no claim goes unchecked.
 */
const README_LIMIT = 200;
const CLAIM = '; // => ';
const dir = `${rootDir}test/.readme/run/`;
const blocks = markdownFiles()
  .flatMap((file) => codeBlocksOf(file))
  .filter(isTypeScript);
const runnable = blocks.filter((block) => block.flags.includes('run'));
const where = (block: (typeof blocks)[number], offset = 0): string =>
  `${block.file}:${block.line + offset} (${block.heading})`;

/** Compiles an async function, so a claim may `await`. */
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  body: string,
) => unknown;

const isExpression = (source: string): boolean => {
  try {
    new AsyncFunction(`return (${source});`);
    return true;
  } catch {
    return false;
  }
};

/** Turns `expr; // => value` lines into checks; a claim that is not one is a problem. */
const instrument = (
  block: (typeof blocks)[number],
): { source: string; checks: number; problems: string[] } => {
  let checks = 0;
  const problems: string[] = [];
  const source = block.code
    .split('\n')
    .map((line, index) => {
      if (!line.includes('// =>')) return line;
      const at = line.indexOf(CLAIM);
      const expr = at < 0 ? '' : line.slice(0, at);
      const value = at < 0 ? '' : line.slice(at + CLAIM.length);
      if (!isExpression(expr.trim()) || !isExpression(value.trim())) {
        problems.push(`${where(block, index + 1)}: not a checkable claim: ${line.trim()}`);
        return line;
      }
      checks++;
      return `(globalThis as any).__readmeCheck((${expr}), (${value}), ${JSON.stringify(`${where(block, index + 1)}: ${line.trim()}`)});`;
    })
    .join('\n');
  return { source, checks, problems };
};

describe('README and guides', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`README has at most ${README_LIMIT} lines`, () => {
    const lines = readMarkdown('README.md').replace(/\n$/, '').split('\n').length;
    console.log(`README: ${lines} lines (limit ${README_LIMIT})`);
    expect(lines).toBeLessThanOrEqual(README_LIMIT);
  });

  it("the README's tour is executed", () => {
    const tour = blocks.filter(
      (block) => block.file === 'README.md' && block.heading === '## Tour',
    );
    expect(tour.length).toBeGreaterThanOrEqual(1);
    expect(
      tour.filter((block) => !block.flags.includes('run')).map((block) => where(block)),
    ).toEqual([]);
  });

  it('claims are made only where they are checked', () => {
    const unchecked = blocks
      .filter((block) => !block.flags.includes('run') && block.code.includes('// =>'))
      .map((block) => `${where(block)}: has // => claims but is not a ts run block`);
    expect([...unchecked, ...runnable.flatMap((block) => instrument(block).problems)]).toEqual([]);
  });

  it.each(runnable.map((block) => [where(block), block] as const))(
    '%s runs and its claims hold',
    async (_name, block) => {
      const { source, checks } = instrument(block);
      expect(checks).toBeGreaterThanOrEqual(1);
      const seen: string[] = [];
      (globalThis as { __readmeCheck?: unknown }).__readmeCheck = (
        actual: unknown,
        expected: unknown,
        line: string,
      ) => {
        expect(actual, line).toEqual(expected);
        seen.push(line);
      };
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      mkdirSync(dir, { recursive: true });
      const file = `${dir}${block.file.replace(/[^A-Za-z0-9]/g, '_')}_L${block.line}.ts`;
      writeFileSync(file, source);
      try {
        await import(/* @vite-ignore */ `file://${file}`);
      } finally {
        log.mockRestore();
      }
      expect(seen).toHaveLength(checks);
    },
  );
});
