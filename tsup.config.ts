import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { browserTwins } from './scripts/browserTwins';

/**
 * The inspector page, built first by `npm run build:page` (vite.inspector.config.ts) as one HTML
 * file; dist/cli.js carries it as a string, so the installed bin writes it with no other file.
 */
const inspectorPage = (): string => {
  const file = new URL('./build/inspector/index.html', import.meta.url);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file.pathname} is missing: run npm run build:page before tsup`);
  }
};

/**
 * The browser-safe entries (the root, store-kit, testing, sse, tokens, constants, knowledge,
 * pruning) each list their names from the modules that define them (`export { addMessage } from
 * '../core/addMessage'`), and `src/library.ts` re-exports every one of them. In the build, each
 * is a thin list over the built `library.js` / `library.cjs` (or `library.browser.*` for the
 * browser builds): this plugin points every relative import of a thin entry file at it, external,
 * so every entry shares one copy of each module (one tokenizer registry, one class per error)
 * instead of bundling its own. An adapter that needs a non-public part of the library (the AI
 * SDK's decoder) imports `../../library` the same way.
 */
const sharedLibrary = (variant: '' | '.browser'): Plugin => ({
  name: 'shared-library',
  setup(build) {
    // tsup builds both formats as ESM (then converts to CJS to tree-shake); the format it is
    // building is in its TSUP_FORMAT define.
    const extension = build.initialOptions.define?.['TSUP_FORMAT'] === '"cjs"' ? 'cjs' : 'js';
    const library = { path: `./library${variant}.${extension}`, external: true };
    build.onResolve({ filter: /^(\.\/|(\.\.\/)+)library$/ }, () => library);
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      THIN_ENTRY_FILES.has(resolve(args.importer)) ? library : undefined,
    );
  },
});

/** The browser-safe entries, each a thin list over the shared library build. */
const thinEntries = {
  index: 'src/entries/index.ts',
  'store-kit': 'src/entries/storeKit.ts',
  testing: 'src/entries/testing.ts',
  sse: 'src/entries/sse.ts',
  tokens: 'src/entries/tokens.ts',
  constants: 'src/entries/constants.ts',
  knowledge: 'src/entries/knowledge.ts',
  pruning: 'src/entries/pruning.ts',
};

/** The thin entries' files, absolute: their relative imports are the shared library's names. */
const THIN_ENTRY_FILES: ReadonlySet<string> = new Set(
  Object.values(thinEntries).map((source) => resolve(source)),
);

const common: Options = {
  // Source maps are not shipped (see "files" in package.json): the published JavaScript is
  // unminified, readable ESM and CJS, so a stack trace already points at readable code.
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
  external: ['conversation-memory'],
  // `npm run build` empties dist/ first (rm -rf dist), so no config cleans another's files.
  clean: false,
};

export default defineConfig([
  {
    ...common,
    // The shared library, built on its own: in the entries' build, the plugin points the thin
    // entries' imports at it, which inside the library itself would point it at itself.
    entry: { library: 'src/library.ts' },
    format: ['esm', 'cjs'],
    dts: false,
  },
  {
    ...common,
    entry: {
      ...thinEntries,
      // Adapters use only the public API, imported by the package's own name, so the built
      // subpaths share the root entry's code instead of carrying a copy of it.
      openai: 'src/entries/integrations/openai.ts',
      anthropic: 'src/entries/integrations/anthropic.ts',
      'ai-sdk': 'src/entries/integrations/aiSdk.ts',
      redux: 'src/entries/integrations/redux.ts',
      zustand: 'src/entries/integrations/zustand.ts',
      otel: 'src/entries/integrations/otel.ts',
      // Node-only stores (files, SQLite, Redis); the same rule: the public API by name.
      node: 'src/entries/integrations/node.ts',
      // The knowledge graph over MCP (Node; the optional peer @modelcontextprotocol/sdk).
      mcp: 'src/entries/integrations/mcp.ts',
      // The former name of `node`, an alias until 1.0 (re-exports `conversation-memory/node`).
      'sessions-node': 'src/entries/integrations/sessionsNode.ts',
      // The stores' conformance suites (test/stores/, bundled in); vitest and fast-check, optional
      // peers that no other entry loads, stay external like the library.
      'store-kit-testing': 'src/entries/integrations/storeKitTesting.ts',
      // loadTokenizer with the encodings behind it, for the browser builds.
      encodings: 'src/entries/encodings.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    esbuildPlugins: [sharedLibrary('')],
  },
  {
    ...common,
    // The browser builds: their types are the entries' own (package.json points each "browser"
    // condition at the same .d.ts). The same src/library.ts, with the modules that load encodings
    // and the planner swapped for their `.browser.ts` twins (scripts/browserTwins.ts).
    entry: { 'library.browser': 'src/library.ts' },
    format: ['esm', 'cjs'],
    dts: false,
    esbuildPlugins: [browserTwins],
  },
  {
    ...common,
    entry: {
      ...Object.fromEntries(
        Object.entries(thinEntries).map(([name, source]) => [`${name}.browser`, source]),
      ),
    },
    format: ['esm', 'cjs'],
    dts: false,
    // The thin entries over library.browser.*.
    esbuildPlugins: [sharedLibrary('.browser'), browserTwins],
  },
  {
    ...common,
    // The `conversation-memory` command (Node only, ESM only: the bin is dist/cli.js; it bundles
    // the library code it uses).
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    define: { __INSPECTOR_PAGE__: JSON.stringify(inspectorPage()) },
  },
]);
