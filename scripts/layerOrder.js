// An ESLint rule that keeps src/ in layers: a file may import only from its own layer or from a
// layer below it. The order, and what each layer holds, is described in docs/design.md ("Layers
// and dependencies"); LAYERS below is the same list, from the bottom (test/surface/layers.test.ts
// checks that the two agree).
//
// A layer is a folder of src/ (a file's first folder), or a subfolder listed on its own
// (`entries/integrations`); the files at the top of src/ are the layer `(root)`. A folder with no
// place in the order is an error, so a new folder gets one. Relative imports are checked, and so
// are imports of the package by its own name (`conversation-memory`, `conversation-memory/node`),
// resolved to their entry files through tsconfig.json's `paths` (packageEntries.js); other
// packages (fp-ts) and files outside src/ are not.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isPackageName, packageEntries } from './packageEntries.js';

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
  'stores/kit',
  'stores/session',
  'stores/knowledge',
  'stores/event',
  'agent',
  'inspector',
  'entries',
  '(root)',
  'adapters',
  'node',
  // The MCP server (conversation-memory/mcp and `conversation-memory mcp`): over the stores.
  'mcp',
  'entries/integrations',
  // The `conversation-memory` bin (src/cli/main.ts): its commands, over everything.
  'cli',
];

/**
 * The layer of a path inside src/ (`undefined` outside src/).
 *
 * @param {string} srcRoot - the absolute path of src/
 * @param {string} file - an absolute path
 * @returns {string | undefined} its layer (which may have no place in LAYERS)
 */
export const layerOf = (srcRoot, file) => {
  const inside = relative(srcRoot, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const parts = inside.split(sep);
  if (parts.length === 1) return '(root)';
  const subfolder = parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return subfolder !== undefined && LAYERS.includes(subfolder) ? subfolder : parts[0];
};

/** The entry files by import name, read once per project folder. */
const entriesByRoot = new Map();
const entriesOf = (root) => {
  if (!entriesByRoot.has(root)) entriesByRoot.set(root, packageEntries(root));
  return entriesByRoot.get(root);
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
      unresolved:
        "{{name}} has no entry file in tsconfig.json's paths, so its layer is unknown: add it there, or import the file it means.",
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
      const name = source.value;
      let target;
      let shown;
      if (name.startsWith('.')) {
        target = resolve(dirname(file), name);
        shown = relative(context.cwd, target);
      } else if (isPackageName(name)) {
        target = entriesOf(context.cwd).get(name);
        if (target === undefined) {
          context.report({ node: source, messageId: 'unresolved', data: { name } });
          return;
        }
        shown = `${name} (${relative(context.cwd, target)})`;
      } else return;
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
          data: { from: relative(context.cwd, file), fromLayer, to: shown, toLayer, order },
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
