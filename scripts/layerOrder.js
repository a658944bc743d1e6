// An ESLint rule that keeps src/ in layers: a file may import only from its own layer or from a
// layer below it. The order, from the bottom:
//
//   model        types, the shapes of messages, states, configs, effects (imports nothing)
//   util         small leaf utilities (describing values, escaping text; imports nothing else)
//   errors       our error classes
//   tokens       tokenizers and counting
//   internal     the core's shared machinery (windows, trim plans, message normalization)
//   messages     message constructors
//   formats      provider formats (OpenAI, Anthropic) and transcript checks
//   core         the reducers, one a file, and the selectors
//   serialization, log, codec, actions, view, facade, sessions, eventStore, agent, inspector
//   (root)       src/library.ts and src/index.ts
//   entries, adapters, node   the subpath entries (they import the package by name)
//
// A folder that is not listed is an error, so a new folder gets a place in the order. Imports by
// package name (fp-ts, 'conversation-memory/store-kit') and files outside src/ are not checked.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const LAYERS = [
  'model',
  'util',
  'errors',
  'tokens',
  'similarity',
  'internal',
  'messages',
  'formats',
  'knowledge',
  'core',
  'serialization',
  'log',
  'codec',
  'actions',
  'view',
  'facade',
  'sessions',
  'eventStore',
  'agent',
  'inspector',
  '(root)',
  'entries',
  'adapters',
  'node',
];

/** The layer of a path inside src/ (`undefined` outside src/). */
export const layerOf = (srcRoot, file) => {
  const inside = relative(srcRoot, file);
  if (inside.startsWith('..') || inside === '') return undefined;
  const parts = inside.split(sep);
  return parts.length === 1 ? '(root)' : parts[0];
};

/** The package's own name, as src/ imports it (`conversation-memory`, `conversation-memory/node`). */
export const PACKAGE_NAME = 'conversation-memory';

/**
 * The entry file of each import name of the package (`conversation-memory`,
 * `conversation-memory/store-kit`, …), absolute, from tsconfig.json's `paths`: the one map that
 * TypeScript, the tests (vite.config.ts) and this rule resolve the names with.
 */
export const packageEntries = (root) => {
  const file = join(root, 'tsconfig.json');
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  if (error !== undefined)
    throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  const paths = config?.compilerOptions?.paths ?? {};
  return new Map(
    Object.entries(paths)
      .filter(([name]) => name === PACKAGE_NAME || name.startsWith(`${PACKAGE_NAME}/`))
      .map(([name, [target]]) => [name, resolve(root, target)]),
  );
};

/** @type {import('eslint').Rule.RuleModule} */
const layerOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports in src/ follow the layer order (no import upward).' },
    schema: [],
    messages: {
      upward:
        '{{from}} (layer {{fromLayer}}) may not import {{to}} (layer {{toLayer}}): the layer order is {{order}}.',
      unknown:
        '{{file}} is in folder {{layer}}, which has no place in the layer order ({{order}}).',
    },
  },
  create(context) {
    const file = context.filename;
    const srcRoot = resolve(context.cwd, 'src');
    const fromLayer = layerOf(srcRoot, file);
    if (fromLayer === undefined) return {};
    const order = LAYERS.join(' < ');
    const check = (node) => {
      const source = node.source;
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = resolve(dirname(file), source.value);
      const toLayer = layerOf(srcRoot, target);
      if (toLayer === undefined || toLayer === fromLayer) return;
      const from = LAYERS.indexOf(fromLayer);
      const to = LAYERS.indexOf(toLayer);
      if (from < 0) {
        context.report({
          node: source,
          messageId: 'unknown',
          data: { file: relative(context.cwd, file), layer: fromLayer, order },
        });
        return;
      }
      if (to < 0 || to > from) {
        context.report({
          node: source,
          messageId: 'upward',
          data: {
            from: relative(context.cwd, file),
            fromLayer,
            to: relative(context.cwd, target),
            toLayer,
            order,
          },
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'layer-order': layerOrder } };
