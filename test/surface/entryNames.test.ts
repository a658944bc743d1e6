import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageEntries } from '../../scripts/packageEntries.js';
import { rootDir } from '../support/markdown';

/**
 * Each public name is listed once, in its entry file (src/entries/), and the API report of each
 * entry (etc/api/, which `npm run api:check` compares with the built .d.ts files) names exactly the
 * names its entry file exports: a name added to an entry without its report, or a report left
 * behind by a name removed, fails here before any build. src/library.ts, the shared module behind
 * the browser-safe entries, lists no public name: it re-exports each of those entries, plus the
 * few internal parts the adapters import from it.
 */
const read = (file: string): string => readFileSync(join(rootDir, file), 'utf8');

/** The names an API report declares: `export const x`, `export interface X`, `export { y }`, … */
const reportNames = (report: string): string[] => [
  ...[
    ...report.matchAll(
      /^export (?:declare )?(?:abstract )?(?:const|let|var|function|class|interface|type|enum|namespace) (\w+)/gm,
    ),
  ].map((match) => match[1] ?? ''),
  ...[...report.matchAll(/^export \{([^}]*)\}/gm)].flatMap((match) =>
    (match[1] ?? '').split(',').map(
      (part) =>
        part
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? '',
    ),
  ),
];

/** The report's file name of an import name: `conversation-memory/store-kit` → `store-kit`. */
const reportOf = (importName: string): string =>
  importName === 'conversation-memory'
    ? 'index'
    : importName.slice('conversation-memory/'.length).replaceAll('/', '-');

/** One program over every entry file, with tsconfig.json's options (its `paths` included). */
const entryProgram = (files: readonly string[]): ts.Program => {
  const config = ts.parseJsonConfigFileContent(
    JSON.parse(read('tsconfig.json')) as unknown,
    ts.sys,
    rootDir,
  );
  return ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
};

/** The names a module exports (values and types), sorted. */
const exportedNames = (program: ts.Program, file: string): string[] => {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`${file}: no module symbol`);
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
};

describe('public names', () => {
  const entries = [...packageEntries(rootDir)];
  const program = entryProgram([
    ...entries.map(([, file]) => file),
    join(rootDir, 'src/library.ts'),
  ]);

  it.each(entries.map(([name, file]) => [name, file] as const))(
    "%s: the entry file's names are its API report's names",
    (name, file) => {
      const names = exportedNames(program, file);
      expect(names.length, name).toBeGreaterThan(0);
      expect(names).toEqual(
        [...new Set(reportNames(read(`etc/api/${reportOf(name)}.api.md`)))].sort(),
      );
    },
  );

  it('the report reader finds every kind of declaration (so the comparison can fail)', () => {
    const report = [
      'export const a: number;',
      'export function b(): void;',
      'export class C {',
      'export interface D {',
      'export type E = string;',
      'export namespace F {',
      'export { G, H as I }',
      '// export const notAName',
    ].join('\n');
    expect(reportNames(report)).toEqual(['a', 'b', 'C', 'D', 'E', 'F', 'G', 'I']);
  });

  it('src/library.ts re-exports every browser-safe entry and lists only internal parts itself', () => {
    const library = ts.createSourceFile(
      'library.ts',
      read('src/library.ts'),
      ts.ScriptTarget.Latest,
    );
    const stars: string[] = [];
    const listed: string[] = [];
    for (const statement of library.statements) {
      if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier === undefined) {
        expect.fail(
          `src/library.ts has a statement other than a re-export: ${statement.getText(library)}`,
        );
        continue;
      }
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      if (statement.exportClause === undefined) stars.push(from);
      else if (ts.isNamedExports(statement.exportClause))
        listed.push(...statement.exportClause.elements.map((element) => element.name.text));
    }
    // The thin entries (tsup.config.ts builds each over the shared library) are the ones it stars.
    const thin = /const thinEntries = \{([^}]*)\}/.exec(read('tsup.config.ts'))?.[1] ?? '';
    const thinFiles = [...thin.matchAll(/'src\/(entries\/\w+)\.ts'/g)].map(
      (match) => `./${match[1]}`,
    );
    expect(thinFiles.length).toBeGreaterThan(5);
    expect([...stars].sort()).toEqual([...thinFiles].sort());
    // What it lists itself is not a browser-safe entry's (an adapter entry may make it public, as
    // `/openai` does its error classes), and an adapter or its entry imports it from here.
    const thinNames = new Set(
      thinFiles.flatMap((file) => exportedNames(program, join(rootDir, 'src', `${file}.ts`))),
    );
    expect(listed.filter((name) => thinNames.has(name))).toEqual([]);
    const adapterImports = ts.sys
      .readDirectory(join(rootDir, 'src'), ['.ts'])
      .map((file) => readFileSync(file, 'utf8'))
      .filter((text) => /from '(\.\.\/)+library'/.test(text))
      .join('\n');
    expect(listed.filter((name) => !new RegExp(`\\b${name}\\b`).test(adapterImports))).toEqual([]);
  });
});
