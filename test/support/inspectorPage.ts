/**
 * The inspector page for tests: built with vite.inspector.config.ts (as `npm run build:page`
 * builds it) into a fresh temporary folder, once per test file, so test files running at the same
 * time never share an output folder.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
let built: Promise<string> | undefined;

/** The built page template (one HTML file with its data slot). */
export const pageTemplate = (): Promise<string> => {
  built ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cm-page-'));
    try {
      await build({
        configFile: join(root, 'vite.inspector.config.ts'),
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
      return readFileSync(join(outDir, 'index.html'), 'utf8');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  })();
  return built;
};
