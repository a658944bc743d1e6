import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DIST_TEST_PATHS, ISOLATED_TEST_FILES, runsAgainstDist } from './test/setup/testPlan';

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

/** The rerun against `dist/`: folders of the plan as globs, files as they are. */
const distGlobs = DIST_TEST_PATHS.map((path) =>
  path.endsWith('/') ? `${path}**/*.test.ts` : path,
);

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
    setupFiles: ['./test/setup/fastCheck.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/slowestFilesReporter.ts'],
    // Two projects (test/setup/testPlan.ts says why): most files share a worker process, the
    // few that change process-wide state get one each. Under TEST_DIST, only the files that
    // exercise what the build changes.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          isolate: false,
          include: useDist ? distGlobs : ['test/**/*.test.ts'],
          exclude: [...ISOLATED_TEST_FILES, '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          isolate: true,
          include: useDist ? ISOLATED_TEST_FILES.filter(runsAgainstDist) : [...ISOLATED_TEST_FILES],
        },
      },
      // The type tests (*.test-d.ts, expectTypeOf), checked by tsc; not run again against dist/.
      ...(useDist
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'types',
                include: [],
                typecheck: {
                  enabled: true,
                  only: true,
                  include: ['test/**/*.test-d.ts'],
                  tsconfig: './tsconfig.json',
                },
              },
            },
          ]),
    ],
  },
});
