import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The README's tour, and the other sections listed below, are executed, so they cannot rot. Each
 * ```ts block of those sections becomes a module; every line of the form `expression; // value`
 * whose comment is a JavaScript expression becomes an assertion that the expression deep-equals
 * the value.
 */
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const CHECKED_SECTIONS = [
  '## Tour',
  '### Tracing with OpenTelemetry',
  '### The model view (`modelView`)',
  '### Streaming from providers, and to a browser',
];
/** A section's text: from its heading to the next heading of its level or above. */
const sectionOf = (heading: string): string => {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no section ${heading}`);
  const level = heading.indexOf(' ');
  const next = new RegExp(`\n#{1,${level}} `, 'g');
  next.lastIndex = start + 1;
  return readme.slice(start, next.exec(readme)?.index ?? readme.length);
};
const blocks = CHECKED_SECTIONS.flatMap((heading) =>
  [...sectionOf(heading).matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? ''),
);
const dir = new URL('./.readme/', import.meta.url);

const isExpression = (source: string): boolean => {
  try {
    new Function(`return (${source});`);
    return true;
  } catch {
    return false;
  }
};

/** Turns `expr; // value` lines into checks; returns the module source and how many checks. */
const instrument = (block: string): { source: string; checks: number } => {
  let checks = 0;
  const source = block
    .split('\n')
    .map((line) => {
      const match = /^(?<expr>[^/]+?);\s*\/\/ (?<value>.+)$/.exec(line);
      const expr = match?.groups?.['expr'];
      const value = match?.groups?.['value'];
      if (
        expr === undefined ||
        value === undefined ||
        !isExpression(value) ||
        !isExpression(expr)
      ) {
        return line;
      }
      checks++;
      return `(globalThis as any).__readmeCheck((${expr}), (${value}), ${JSON.stringify(line.trim())});`;
    })
    .join('\n');
  return { source, checks };
};

describe('README tour', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has code blocks to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks.map((block, index) => [index, block] as const))(
    'block %i runs and its claims hold',
    async (index, block) => {
      const { source, checks } = instrument(block);
      expect(checks).toBeGreaterThanOrEqual(2);
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
      const file = new URL(`block${index}.ts`, dir);
      writeFileSync(file, source);
      let logged: number;
      try {
        await import(/* @vite-ignore */ file.href);
      } finally {
        logged = log.mock.calls.length;
        log.mockRestore();
      }
      expect(seen).toHaveLength(checks);
      expect(logged).toBeGreaterThan(0);
    },
  );
});
