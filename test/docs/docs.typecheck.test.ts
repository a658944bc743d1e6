import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import {
  codeBlocksOf,
  isTypeScript,
  markdownFiles,
  rootDir,
  type CodeBlock,
} from '../support/markdown';

/**
 * Every ```ts block of README.md and docs/**\/*.md is type-checked against `src/` with the
 * project's tsconfig (its `paths` resolve `conversation-memory` and its subpaths), as one
 * TypeScript program for all blocks. Each block is its own module. A block marked ```ts fragment
 * (a piece of a larger program; the README has none) is checked too: when it parses as
 * statements it is checked whole, names it uses without declaring them being the only errors
 * allowed (`messages`, declared by the program around it); when it does not (a shape such as
 * `{ type: 'memory/trimmed', … }`), its import declarations are checked alone. Either way an
 * import of a name its module does not export fails.
 */
const dir = `${rootDir}test/.readme/typecheck/`;
const blocks = markdownFiles()
  .flatMap((file) => codeBlocksOf(file))
  .filter(isTypeScript);
const isFragment = (block: CodeBlock): boolean => block.flags.includes('fragment');
const fileOf = (block: CodeBlock): string =>
  `${dir}${block.file.replace(/[^A-Za-z0-9]/g, '_')}_L${block.line}.ts`;

/** The errors a fragment may have: a name it uses but does not declare (TS2304, TS18004). */
const UNDECLARED_NAME = new Set([2304, 18004]);

/** Whether a fragment parses as statements (then it is checked whole). */
const parses = (code: string): boolean =>
  (ts.transpileModule(code, { reportDiagnostics: true }).diagnostics ?? []).length === 0;

/** The module a block is checked as. `export {}` makes each a module of its own. */
const moduleOf = (block: CodeBlock): string => {
  if (!isFragment(block) || parses(block.code)) return `${block.code}\nexport {};\n`;
  const source = ts.createSourceFile('fragment.ts', block.code, ts.ScriptTarget.Latest, true);
  const imports = source.statements.filter(ts.isImportDeclaration).map((s) => s.getText(source));
  // Blank lines keep each import on its line, so a problem is reported where the docs have it.
  const lines = block.code.split('\n').map(() => '');
  for (const text of imports) {
    const at = block.code.indexOf(text);
    const line = block.code.slice(0, at).split('\n').length - 1;
    lines.splice(line, text.split('\n').length, ...text.split('\n'));
  }
  return `${lines.join('\n')}\nexport {};\n`;
};

/**
 * Blocks the check must refuse or accept, so it cannot pass by checking nothing: a fragment and a
 * shape importing a name the root does not export (`registerEmbedder` is in
 * `conversation-memory/pruning`), and a fragment that only uses undeclared names.
 */
const probe = (line: number, code: string): CodeBlock => ({
  file: 'probe.md',
  line,
  lang: 'ts',
  flags: ['fragment'],
  code,
  heading: '# probe',
});
const PROBES = [
  probe(
    1,
    "import { registerEmbedder } from 'conversation-memory';\nregisterEmbedder('x', embed);",
  ),
  probe(
    10,
    "import { embeddingText } from 'conversation-memory';\n{ type: 'x', removed: Message[] }",
  ),
  probe(
    20,
    "import { registerEmbedder } from 'conversation-memory/pruning';\nregisterEmbedder('x', embed);\nconst shown = { messages };",
  ),
] as const;

/** Every `apiKey: '…'` string a block passes (to a client's constructor), with where it is. */
const apiKeysOf = (block: CodeBlock): { key: string; where: string }[] => {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.Latest, true);
  const keys: { key: string; where: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText(source) === 'apiKey' &&
      ts.isStringLiteralLike(node.initializer)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      keys.push({ key: node.initializer.text, where: `${block.file}:${block.line + 1 + line}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
};

/** Whether a client can send the key: it goes in a header (`Authorization: Bearer …`, `x-api-key`). */
const sendable = (key: string): boolean => {
  try {
    new Headers({ authorization: `Bearer ${key}`, 'x-api-key': key });
    return true;
  } catch {
    return false; // a header value is a byte string: `…` is not one, and the client rejects it
  }
};

describe('docs blocks type-check', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has blocks to check, and the README no fragment', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.file === 'README.md' && isFragment(block))).toEqual([]);
    const fragments = blocks.filter(isFragment);
    console.log(
      `docs: ${blocks.length} TypeScript blocks type-checked, ${fragments.length} of them fragments (${fragments.filter((block) => !parses(block.code)).length} shapes: their imports only)`,
    );
  });

  it('placeholder API keys are keys a client can send', () => {
    const keys = blocks.flatMap(apiKeysOf);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter(({ key }) => !sendable(key))).toEqual([]);
    expect(
      apiKeysOf(probe(1, "new OpenAI({ apiKey: 'sk-…' });")).map(({ key }) => sendable(key)),
    ).toEqual([false]);
  });

  it.skipIf(process.env['TEST_DIST'] === '1')('every block compiles', () => {
    mkdirSync(dir, { recursive: true });
    const byFile = new Map<string, CodeBlock>();
    for (const block of [...blocks, ...PROBES]) {
      const file = fileOf(block);
      writeFileSync(file, moduleOf(block));
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
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        .filter((diagnostic) => !(isFragment(block) && UNDECLARED_NAME.has(diagnostic.code)))
        .map((diagnostic) => {
          const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
          const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
          return `${block.file}:${block.line + 1 + line} (${block.heading}): ${text}`;
        });
    });
    expect(problems.filter((problem) => !problem.startsWith('probe.md:'))).toEqual([]);
    // The probes: both wrong imports refused, where the block has them; undeclared names allowed.
    expect(problems.filter((problem) => problem.startsWith('probe.md:'))).toEqual([
      `probe.md:2 (# probe): Module '"conversation-memory"' has no exported member 'registerEmbedder'.`,
      `probe.md:11 (# probe): Module '"conversation-memory"' has no exported member 'embeddingText'.`,
    ]);
  });
});
