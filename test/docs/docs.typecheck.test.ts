import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocksOf, isTypeScript, markdownFiles, rootDir } from '../support/markdown';

/**
 * Every ```ts block of README.md and docs/**\/*.md is type-checked against `src/` with the
 * project's tsconfig (its `paths` resolve `conversation-memory` and its subpaths), as one
 * TypeScript program for all blocks. Each block is its own module. A block marked ```ts fragment
 * (a piece of a larger program) is left out; the README has none.
 */
const dir = `${rootDir}test/.readme/typecheck/`;
const blocks = markdownFiles()
  .flatMap((file) => codeBlocksOf(file))
  .filter(isTypeScript);
const checked = blocks.filter((block) => !block.flags.includes('fragment'));
const fileOf = (block: (typeof blocks)[number]): string =>
  `${dir}${block.file.replace(/[^A-Za-z0-9]/g, '_')}_L${block.line}.ts`;

describe('docs blocks type-check', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has blocks to check, and the README no fragment', () => {
    expect(checked.length).toBeGreaterThan(10);
    expect(
      blocks.filter((block) => block.file === 'README.md' && block.flags.includes('fragment')),
    ).toEqual([]);
    console.log(
      `docs: ${checked.length} TypeScript blocks type-checked, ${blocks.length - checked.length} fragments`,
    );
  });

  it.skipIf(process.env['TEST_DIST'] === '1')('every block compiles', () => {
    mkdirSync(dir, { recursive: true });
    const byFile = new Map<string, (typeof blocks)[number]>();
    for (const block of checked) {
      const file = fileOf(block);
      // `export {}` makes every block a module of its own, so blocks never share names.
      writeFileSync(file, `${block.code}\nexport {};\n`);
      byFile.set(file, block);
    }
    const config = ts.getParsedCommandLineOfConfigFile(
      `${rootDir}tsconfig.json`,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
    );
    if (config === undefined) expect.fail('tsconfig.json could not be read');
    // A block may declare what it only shows (`const state = createMemory(…)`): unused names are fine.
    const options = { ...config.options, noUnusedLocals: false, noUnusedParameters: false };
    const program = ts.createProgram([...byFile.keys()], options);
    const problems = [...byFile].flatMap(([file, block]) => {
      const source = program.getSourceFile(file);
      if (source === undefined) return [`${block.file}:${block.line}: not compiled`];
      return [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ].map((diagnostic) => {
        const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        return `${block.file}:${block.line + 1 + line} (${block.heading}): ${text}`;
      });
    });
    expect(problems).toEqual([]);
  });
});
