/**
 * Regenerates the README's picture of the inspector page, docs/inspector.png, from a log file with
 * a plain name, docs/example-log.json (written here too: the tests' recorded conversation, its
 * first 15 actions, without the hostile messages). The page is built as `npm run build:page`
 * builds it, written by `inspect --html` as a user would, opened in Debian's Chromium at 1400×900
 * and shown at step 9 (an injected summary, a pinned system message, a tool group, and four
 * messages trimmed by two rules).
 *
 *   npx tsx test/support/inspectorScreenshot.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { encodeEnvelope, fork } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { recordedLog } from './inspectorLog';
import { pageTemplate } from './inspectorPage';

const STEP = 9;
const root = fileURLToPath(new URL('../..', import.meta.url));
/** As the README's command names it, relative to the project: what the page's header shows. */
const LOG = 'docs/example-log.json';

const main = async (): Promise<void> => {
  process.chdir(root);
  writeFileSync(LOG, `${JSON.stringify(encodeEnvelope(fork(recordedLog(), 15)), null, 2)}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'cm-screenshot-'));
  const page = join(dir, 'inspector.html');
  try {
    const template = await pageTemplate();
    const made = runInspect({
      argv: ['inspect', LOG, '--html', page],
      readText: (file) => readFileSync(file, 'utf8'),
      isTTY: false,
      env: {},
      pageTemplate: () => template,
      writeText: (file, text) => writeFileSync(file, text),
    });
    if (made.code !== 0) throw new Error(made.stderr);
    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox'],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await tab.goto(pathToFileURL(page).href);
      await tab.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await tab.locator('#slider').fill(String(STEP));
      await tab.waitForSelector(`body[data-step="${STEP}"]`);
      await tab.locator('#slider').blur();
      await tab.screenshot({ path: join(root, 'docs/inspector.png') });
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${LOG} and docs/inspector.png (step ${STEP})\n`);
};

await main();
