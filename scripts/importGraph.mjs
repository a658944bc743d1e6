#!/usr/bin/env node
/**
 * The import graph of src/, collapsed to layers, and the arrows in it that run upward against
 * the layer order (docs/design.md, "Layers and dependencies"; scripts/layerOrder.js keeps it).
 * Every import, re-export and `import()` of a file counts, as the layer rule sees them: relative
 * ones, and the package's own name (`conversation-memory`, `conversation-memory/store-kit`)
 * resolved to its entry file through tsconfig.json's `paths`. An arrow is one pair of layers
 * (`tokens → entries`), however many imports make it.
 *
 * Usage: `node scripts/importGraph.mjs` prints the count of upward arrows and, under each, the
 * imports that make it; it exits with 1 when there is one, or an import of the package's name that
 * tsconfig.json's `paths` does not map. test/surface/layers.test.ts holds the
 * count to 0.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { LAYERS, layerOf } from './layerOrder.js';
import { isPackageName, packageEntries } from './packageEntries.js';

/** Every .ts file under a folder, absolute. */
const sourceFiles = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

/** The module names a file imports, re-exports or loads with `import()` (string literals only). */
const importedNames = (file) => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      names.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      names.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
};

/** The file a relative import names (`./x` is `./x.ts` or `./x/index.ts`). */
const resolveRelative = (from, name) => {
  const base = resolve(dirname(from), name);
  const file = [base, `${base}.ts`, join(base, 'index.ts')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
  return file ?? base;
};

/**
 * The import graph of `root`'s src/ and its upward arrows.
 *
 * @param {string} root - the project folder (with src/ and tsconfig.json)
 * @returns {{ files: number, imports: number, arrows: string[], upward: { arrow: string, imports: string[] }[], unresolved: string[] }}
 */
export const importGraph = (root) => {
  const srcRoot = join(root, 'src');
  const entries = packageEntries(root);
  const arrows = new Map();
  const files = sourceFiles(srcRoot);
  const unresolved = [];
  let imports = 0;
  for (const file of files) {
    const fromLayer = layerOf(srcRoot, file);
    for (const name of importedNames(file)) {
      const target = name.startsWith('.')
        ? resolveRelative(file, name)
        : isPackageName(name)
          ? entries.get(name)
          : undefined;
      if (target === undefined) {
        if (isPackageName(name)) unresolved.push(`${relative(root, file)} imports ${name}`);
        continue;
      }
      imports += 1;
      const toLayer = layerOf(srcRoot, target);
      if (toLayer === undefined || toLayer === fromLayer) continue;
      const arrow = `${fromLayer} → ${toLayer}`;
      const made = arrows.get(arrow) ?? [];
      made.push(`${relative(root, file)} imports ${name}`);
      arrows.set(arrow, made);
    }
  }
  const upward = [...arrows]
    .filter(([arrow]) => {
      const [from, to] = arrow.split(' → ').map((layer) => LAYERS.indexOf(layer));
      return to < 0 || to > from;
    })
    .map(([arrow, made]) => ({ arrow, imports: made }));
  return { files: files.length, imports, arrows: [...arrows.keys()], upward, unresolved };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const { files, imports, arrows, upward, unresolved } = importGraph(root);
  process.stdout.write(
    `${files} files, ${imports} imports of files in src/, ${arrows.length} arrows between layers, ` +
      `${upward.length} upward\n`,
  );
  for (const { arrow, imports: made } of upward) {
    process.stdout.write(`  ${arrow} (${made.length})\n${made.map((m) => `    ${m}\n`).join('')}`);
  }
  for (const line of unresolved) {
    process.stdout.write(`  not in tsconfig.json's paths: ${line}\n`);
  }
  process.exitCode = upward.length === 0 && unresolved.length === 0 ? 0 : 1;
}
