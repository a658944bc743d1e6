/**
 * The inspector page for tests: built with vite.inspector.config.ts (as `npm run build:page`
 * builds it) into a fresh temporary folder, once per test file, so test files running at the same
 * time never share an output folder.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { encodeEnvelope, type EventLog } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';

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

/**
 * Writes `log` to a file in a fresh temporary folder and makes its inspector page with
 * `conversation-memory inspect FILE --html PAGE`, as a user does (with `options`, e.g.
 * `['--prices', 'prices.json']`, after them).
 *
 * @returns the page's path
 */
export const writeInspectorPage = async (
  log: EventLog,
  name: string,
  options: readonly string[] = [],
): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), `cm-${name}-e2e-`));
  const input = join(dir, `${name}.json`);
  writeFileSync(input, JSON.stringify(encodeEnvelope(log)));
  const pageFile = join(dir, `${name}.html`);
  const template = await pageTemplate();
  const made = runInspect({
    argv: ['inspect', input, '--html', pageFile, ...options],
    readText: (file: string) => readFileSync(file, 'utf8'),
    isTTY: false,
    env: {},
    pageTemplate: () => template,
    writeText: (file: string, text: string) => writeFileSync(file, text),
  });
  if (made.code !== 0) throw new Error(`inspect --html failed (${made.code}): ${made.stderr}`);
  return pageFile;
};
