import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

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

export default defineConfig({
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
    // The `conversation-memory` command (Node only; bundles the library code it uses).
    cli: 'src/inspector/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
  external: ['conversation-memory'],
  define: { __INSPECTOR_PAGE__: JSON.stringify(inspectorPage()) },
});
