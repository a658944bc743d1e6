import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Tests import `conversation-memory` by its package name. By default the name
 * points at `src/`; with `TEST_DIST=1` it points at the built `dist/` entry,
 * so the artifact users install is what the suite exercises.
 */
const useDist = process.env['TEST_DIST'] === '1';
const entry = useDist ? './dist/index.js' : './src/index.ts';
/** The adapter subpaths, each an optional peer's adapter. */
const subpath = (name: string): string =>
  useDist ? `./dist/${name}.js` : `./src/adapters/${name}/index.ts`;

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^conversation-memory$/,
        replacement: fileURLToPath(new URL(entry, import.meta.url)),
      },
      ...['openai', 'anthropic', 'ai-sdk', 'redux', 'zustand', 'otel'].map((name) => ({
        find: new RegExp(`^conversation-memory/${name}$`),
        replacement: fileURLToPath(new URL(subpath(name), import.meta.url)),
      })),
      ...(
        [
          ['store-kit', 'store-kit', './src/entries/storeKit.ts'],
          ['testing', 'testing', './src/entries/testing.ts'],
          ['sse', 'sse', './src/entries/sse.ts'],
          ['tokens', 'tokens', './src/entries/tokens.ts'],
          ['constants', 'constants', './src/entries/constants.ts'],
          ['knowledge', 'knowledge', './src/entries/knowledge.ts'],
          ['pruning', 'pruning', './src/entries/pruning.ts'],
          ['encodings', 'encodings', './src/tokens/encodingsEntry.ts'],
          ['node', 'node', './src/node/index.ts'],
          ['sessions/node', 'sessions-node', './src/entries/sessionsNode.ts'],
        ] as const
      ).map(([name, built, source]) => ({
        find: new RegExp(`^conversation-memory/${name}$`),
        replacement: fileURLToPath(
          new URL(useDist ? `./dist/${built}.js` : source, import.meta.url),
        ),
      })),
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup/fastCheck.ts'],
    typecheck: {
      enabled: false,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
