// What a browser app deploys and what its first page load fetches, from the built package,
// resolved as an app's bundler resolves it: through package.json's exports, with the "browser"
// condition (esbuild, platform browser, code splitting, minified; each file gzipped at level 9).
//
// - The first load is the entry chunk plus every chunk it reaches through static imports (esbuild
//   metafile `imports` of kind `import-statement`): what the page fetches before it runs. A chat
//   UI (createMemory, addMessage, getHistory, userMessage; default config, or 'heuristic') must
//   load in at most 10 KB (issue #7 and #17, DESIGN.md), with no io-ts, fp-ts or immer in it:
//   decoders belong to the edges (fromDict, decodeConfig, decodeAction, envelopes). Immer is not
//   in it either: the core freezes messages with its own deep freeze and rejects Immer drafts.
// - The deployable is every file the bundler emits, dynamic chunks included. The encoding tables
//   are megabytes: an app that does not import conversation-memory/encodings must deploy none of
//   them, and one that does deploys o200k and cl100k, as chunks outside its first load.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET = 10 * 1024;
const root = fileURLToPath(new URL('../../', import.meta.url));
const CHAT_UI = ['createMemory', 'addMessage', 'getHistory', 'userMessage'];
const ALL_REDUCERS = [
  'createMemory', 'addMessage', 'addMessages', 'enforceLimits', 'fixToolPairBoundary',
  'applySummary', 'setSummary', 'clearMemory', 'getHistory', 'getRecent', 'getSummary',
  'getTotalTokens', 'userMessage', 'assistantMessage', 'systemMessage', 'toolMessage',
  'imageMessage',
];
const TOKENS = ['loadTokenizer', 'registerTokenizer'];
const use = (imports) =>
  `import { ${imports.join(', ')} } from 'conversation-memory';\nconsole.log(${imports.join(', ')});\n`;
const chatUi = (config) =>
  `import { addMessage, createMemory, getHistory, userMessage } from 'conversation-memory';\n` +
  `console.log(getHistory(addMessage(createMemory(${config}), userMessage('hi')).state));\n`;

const consumers = {
  // The issue's case, with the default tokenizer and with 'heuristic': budgeted, no encoding.
  chatUi: { code: use(CHAT_UI), budget: BUDGET, encodings: [] },
  chatUiHeuristic: { code: chatUi("{ tokenizer: 'heuristic' }"), budget: BUDGET, encodings: [] },
  // Every reducer, selector and constructor: still no decoder, no immer and no encoding.
  allReducers: {
    code: `import { ${TOKENS.join(', ')} } from 'conversation-memory/tokens';\nconsole.log(${TOKENS.join(', ')});\n${use(ALL_REDUCERS)}`,
    budget: undefined,
    encodings: [],
  },
  // A page that counts with o200k: the encodings subpath; its tables are chunks, loaded later.
  withEncodings: {
    code:
      `import { loadTokenizer } from 'conversation-memory/encodings';\n` +
      `await loadTokenizer('o200k_base');\n${chatUi('')}`,
    budget: undefined,
    encodings: ['cl100k_base', 'o200k_base'],
  },
};

const size = (bytes) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Bundles one consumer; returns its files by absolute path, with their metafile entries. */
const bundle = async (work, name, code, alias) => {
  const entry = join(work, `${name}.mjs`);
  writeFileSync(entry, code);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: work,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    outdir: join(work, name),
    ...(alias === undefined ? {} : { alias }),
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'error',
  });
  const files = new Map();
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    const contents = result.outputFiles.find((file) => file.path === resolve(work, path)).contents;
    const imports = output.imports.map((target) => ({ ...target, path: resolve(work, target.path) }));
    files.set(resolve(work, path), { output, imports, bytes: contents.length, gzipped: gzipSync(contents, { level: 9 }).length });
  }
  return { entry: resolve(work, name, `${name}.js`), files };
};

/** The entry and every chunk it reaches through static imports. */
const firstLoad = ({ entry, files }) => {
  const reached = new Set([entry]);
  for (const path of reached) {
    for (const target of files.get(path).imports) {
      if (target.kind === 'import-statement') reached.add(target.path);
    }
  }
  return [...reached];
};

/** The encodings whose table a chunk carries. */
const encodingsIn = (file) =>
  Object.keys(file.output.inputs).flatMap((input) => /gpt-tokenizer\/esm\/bpeRanks\/(\w+)\.js$/.exec(input)?.[1] ?? []);

const work = mkdtempSync(join(tmpdir(), 'cm-size-'));
try {
  // The app's node_modules: this package under its own name, resolved through its exports.
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(root, join(work, 'node_modules', 'conversation-memory'), 'dir');

  for (const [name, { code, budget, encodings }] of Object.entries(consumers)) {
    const built = await bundle(work, name, code);
    const first = firstLoad(built);
    const firstBytes = first.reduce((sum, path) => sum + built.files.get(path).gzipped, 0);
    const inputs = first.flatMap((path) => Object.keys(built.files.get(path).output.inputs));
    assert.ok(inputs.some((input) => input.endsWith('dist/index.browser.js')), `${name}: the "browser" condition was not used`);
    assert.ok(inputs.some((input) => input.endsWith('dist/library.browser.js')), `${name}: the browser library build was not used`);
    assert.ok(!inputs.some((input) => input.endsWith('dist/library.js')), `${name}: the Node library build got in`);
    const unwanted = inputs.filter((input) => /node_modules\/(io-ts|fp-ts|immer|gpt-tokenizer)\//.test(input));
    assert.deepEqual(unwanted, [], `${name}: the first load must not contain io-ts, fp-ts, immer or gpt-tokenizer`);
    const all = [...built.files.values()];
    const deployed = all.flatMap(encodingsIn).sort();
    assert.deepEqual(deployed, encodings, `${name}: the encoding tables it deploys`);
    if (budget !== undefined) {
      assert.ok(firstBytes <= budget, `${name}: first load ${firstBytes} bytes gzipped, over the ${budget}-byte budget`);
    }
    const total = all.reduce((sum, file) => sum + file.bytes, 0);
    const totalGzipped = all.reduce((sum, file) => sum + file.gzipped, 0);
    console.log(
      `${name}: first load: ${firstBytes} bytes gzipped${budget === undefined ? '' : ` (budget ${budget})`}, ` +
        `${first.length} file${first.length === 1 ? '' : 's'}; deploys ${all.length} file${all.length === 1 ? '' : 's'}, ` +
        `${size(total)} (${size(totalGzipped)} gzipped)` +
        (deployed.length === 0 ? ', no encoding table' : `, tables: ${deployed.join(', ')}`),
    );
  }

  // The same chat UI where a bundler ignores the "browser" condition (the Node build): it would
  // deploy the tables, unreachable as they are, because esbuild emits every import() it sees.
  const nodeBuild = await bundle(work, 'chatUiNodeBuild', use(CHAT_UI), {
    'conversation-memory': join(root, 'dist', 'index.js'),
  });
  const nodeFiles = [...nodeBuild.files.values()];
  assert.deepEqual(nodeFiles.flatMap(encodingsIn).sort(), ['cl100k_base', 'o200k_base'], 'the Node build carries the import() of both tables');
  console.log(
    `chatUi on the Node build (no "browser" condition): deploys ${nodeFiles.length} files, ` +
      `${size(nodeFiles.reduce((sum, file) => sum + file.bytes, 0))}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
