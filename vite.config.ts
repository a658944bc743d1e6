import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageEntries } from './scripts/packageEntries.js';
import { distAliases } from './test/dist/distAliases.mjs';
import {
  DIST_TEST_PATHS,
  ISOLATED_TEST_FILES,
  SOURCE_ONLY_TEST_FILES,
  runsAgainstDist,
} from './test/setup/testPlan';

/**
 * Tests import `conversation-memory` and its subpaths by the package's name. By default each name
 * points at its entry file in `src/` (tsconfig.json's `paths`, the map TypeScript uses); with
 * `TEST_DIST=1` it points at the built `dist/` file package.json's `exports` gives it, so the
 * artifact users install is what the suite exercises.
 */
const useDist = process.env['TEST_DIST'] === '1';
const root = fileURLToPath(new URL('./', import.meta.url));
const targets = useDist ? new Map(Object.entries(distAliases(root))) : packageEntries(root);

/** The rerun against `dist/`: folders of the plan as globs, files as they are. */
const distGlobs = DIST_TEST_PATHS.map((path) =>
  path.endsWith('/') ? `${path}**/*.test.ts` : path,
);

export default defineConfig({
  resolve: {
    alias: [...targets].map(([name, replacement]) => ({
      find: new RegExp(`^${name}$`),
      replacement,
    })),
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
          exclude: [
            ...ISOLATED_TEST_FILES,
            ...(useDist ? SOURCE_ONLY_TEST_FILES : []),
            '**/node_modules/**',
          ],
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
