import type { Reporter, TestModule } from 'vitest/node';

/** How many files the reporter lists. */
const SHOWN = 10;

/**
 * A Vitest reporter that prints, at the end of a run, the ten test files that took longest (the
 * time of their tests and hooks plus their import; type tests have none), so that growth is visible in every run's log
 * (`npm test` runs it beside the default reporter, configured in `vite.config.ts`).
 *
 * @example
 * ```ts
 * // vite.config.ts
 * export default defineConfig({
 *   test: { reporters: ['default', './test/support/slowestFilesReporter.ts'] },
 * });
 * ```
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules
      // The type tests are checked by tsc in one go: they have no time of their own.
      .filter((module) => module.project.name !== 'types')
      .map((module) => {
        const diagnostic = module.diagnostic();
        return {
          file: module.relativeModuleId,
          project: module.project.name,
          ms: diagnostic.duration + diagnostic.collectDuration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length === 0) return;
    const lines = rows.map(
      ({ file, project, ms }) =>
        `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}${project === 'isolated' ? '  (own process)' : ''}`,
    );
    const heading =
      rows.length === 1 ? 'The slowest test file' : `The ${rows.length} slowest test files`;
    process.stdout.write(`\n${heading}:\n${lines.join('\n')}\n`);
  }
}
