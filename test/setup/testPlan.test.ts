import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DIST_TEST_PATHS,
  SOURCE_ONLY_TEST_FILES,
  ISOLATED_TEST_FILES,
  PROCESS_STATE_PATTERN,
  runsAgainstDist,
} from './testPlan';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every `*.test.ts` file under test/, as a path from the root. */
const testFiles = (dir = join(root, 'test')): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });

describe('the test plan (test/setup/testPlan.ts)', () => {
  const files = testFiles();

  it('runs every file that changes process-wide state in a process of its own', () => {
    const changing = files.filter((file) =>
      PROCESS_STATE_PATTERN.test(readFileSync(join(root, file), 'utf8')),
    );
    // The pattern finds something (it would pass vacuously if it matched nothing).
    expect(changing.length).toBeGreaterThan(5);
    expect(changing.filter((file) => !ISOLATED_TEST_FILES.includes(file))).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    expect(ISOLATED_TEST_FILES.filter((file) => !files.includes(file))).toEqual([]);
    expect(DIST_TEST_PATHS.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    expect(SOURCE_ONLY_TEST_FILES.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('reruns against dist/ the files of the entries, stores, adapters, CLI and examples only', () => {
    const rerun = files.filter(runsAgainstDist);
    expect(rerun).toContain('test/surface/layers.test.ts');
    expect(rerun).toContain('test/node/sessions.redis.test.ts');
    expect(rerun).toContain('test/examples/examples.test.ts');
    expect(rerun).not.toContain('test/core/reducers.prop.test.ts');
    expect(rerun).not.toContain('test/node/retention.sqlite.batches.test.ts');
    expect(rerun.length).toBeLessThan(files.length / 2);
  });
});
