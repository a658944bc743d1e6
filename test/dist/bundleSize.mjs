// A chat UI imports a few reducers, a selector and a constructor; issue #7 (and DESIGN.md) want
// that bundle at most 10 KB gzipped (level 9) with no decoder in it: io-ts and fp-ts belong to the
// edges (fromDict, decodeConfig, decodeAction, envelopes), never to the path of the reducers. This
// bundles such consumers of the built package for the browser, minified, checks what went in, and
// holds the chat UI's bundle to the 10 KB budget.
//
// Immer is not in it either: the core freezes messages with its own deep freeze and rejects Immer
// drafts (recognised by Immer's registered symbol) instead of unwrapping them; the Redux adapter,
// on its own subpath, unwraps its drafts with Redux Toolkit's `current`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { distAliases } from './distAliases.mjs';

const BUDGET = 10 * 1024;
const root = fileURLToPath(new URL('../../', import.meta.url));
const consumers = {
  // The case: createMemory, addMessage, a selector and a constructor.
  chatUi: {
    imports: ['createMemory', 'addMessage', 'getHistory', 'userMessage'],
    budget: BUDGET,
  },
  // Every reducer, selector and constructor: still no decoder (and no immer), no budget.
  allReducers: {
    imports: [
      'createMemory', 'addMessage', 'addMessages', 'enforceLimits', 'fixToolPairBoundary',
      'applySummary', 'setSummary', 'clearMemory', 'getHistory', 'getRecent', 'getSummary',
      'getTotalTokens', 'userMessage', 'assistantMessage', 'systemMessage', 'toolMessage',
      'imageMessage',
    ],
    budget: undefined,
  },
};

const work = mkdtempSync(join(tmpdir(), 'cm-size-'));
try {
  for (const [name, { imports, budget }] of Object.entries(consumers)) {
    const entry = join(work, `${name}.mjs`);
    writeFileSync(
      entry,
      `import { ${imports.join(', ')} } from 'conversation-memory';\nconsole.log(${imports.join(', ')});\n`,
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      write: false,
      metafile: true,
      outdir: join(work, name),
      alias: distAliases(root),
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'error',
    });
    const main = result.outputFiles.find((file) => file.path.endsWith(`${name}.js`));
    assert.ok(main, `${name}: no entry chunk`);
    const inputs = Object.keys(result.metafile.outputs[Object.keys(result.metafile.outputs).find((key) => key.endsWith(`${name}.js`))].inputs);
    const unwanted = inputs.filter((input) => /node_modules\/(io-ts|fp-ts|immer)\//.test(input));
    assert.deepEqual(unwanted, [], `${name}: the reducers' bundle must not contain io-ts, fp-ts or immer`);
    const gzipped = gzipSync(main.contents, { level: 9 }).length;
    if (budget !== undefined) {
      assert.ok(gzipped <= budget, `${name}: ${gzipped} bytes gzipped, over the ${budget}-byte budget`);
    }
    const limit = budget === undefined ? '' : ` of ${budget} allowed`;
    console.log(
      `${name}: ${(gzipped / 1024).toFixed(1)} KB gzipped (${gzipped} bytes${limit}; ${imports.length} imports), no io-ts/fp-ts/immer`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
