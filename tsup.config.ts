import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

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

/** What every build shares. */
const common = {
  format: ['esm', 'cjs'] as const,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
  external: ['conversation-memory'],
} satisfies Options;

/**
 * The root entry's browser build (`dist/index.browser.*`, the `"browser"` condition of `.` in
 * package.json): the same src/index.ts, with src/tokens/encodingLoader.ts replaced by its
 * `.browser.ts` twin, which loads no encoding. Bundlers emit a chunk for every `import()` they
 * see, reachable or not (esbuild and webpack do; Rollup and Rolldown drop unreachable ones), so
 * the encodings must be absent from the file for a page that counts with 'heuristic' to deploy
 * none of them. A page that counts with an encoding loads it with `conversation-memory/encodings`.
 */
const browserEncodings: Plugin = {
  name: 'browser-encodings',
  setup(build) {
    build.onResolve({ filter: /^\.\/encodingLoader$/ }, () => ({
      path: fileURLToPath(new URL('./src/tokens/encodingLoader.browser.ts', import.meta.url)),
    }));
  },
};

export default defineConfig([
  {
    ...common,
    entry: {
      index: 'src/index.ts',
      // Adapters use only the public API, imported by the package's own name, so the built
      // subpaths share the root entry's code instead of carrying a copy of it.
      openai: 'src/adapters/openai/index.ts',
      anthropic: 'src/adapters/anthropic/index.ts',
      'ai-sdk': 'src/adapters/ai-sdk/index.ts',
      redux: 'src/adapters/redux/index.ts',
      zustand: 'src/adapters/zustand/index.ts',
      otel: 'src/adapters/otel/index.ts',
      // Node-only session stores (files, SQLite, Redis); the same rule: the public API by name.
      'sessions-node': 'src/sessions/node/index.ts',
      // loadTokenizer with the encodings behind it, for the browser build of the root entry.
      encodings: 'src/tokens/encodingsEntry.ts',
      // The `conversation-memory` command (Node only; bundles the library code it uses).
      cli: 'src/inspector/cli/main.ts',
    },
    dts: true,
    // Both builds run at once: this one's clean must spare the other's files.
    clean: ['!index.browser.*'],
    define: { __INSPECTOR_PAGE__: JSON.stringify(inspectorPage()) },
  },
  {
    ...common,
    // Its types are the root entry's own (package.json points the condition at index.d.ts).
    entry: { 'index.browser': 'src/index.ts' },
    dts: false,
    clean: false,
    esbuildPlugins: [browserEncodings],
  },
]);
