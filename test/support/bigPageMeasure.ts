/**
 * Measures the inspector page on a 10,000-step log with a 1,000-message window (issue #9: "it stays
 * fluid"), in Debian's Chromium: time to ready, one step with →, a slider jump, End and Home.
 * Not a test (timings are not asserted): run `npx tsx test/support/bigPageMeasure.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { appendAction, createEventLog, encodeEnvelope, memoryActions } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { pageTemplate } from './inspectorPage';

const STEPS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'cm-big-page-'));
try {
  let log = createEventLog({ maxMessages: 1_000, tokenizer: 'heuristic' });
  for (let i = 0; i < STEPS; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    log = appendAction(
      log,
      memoryActions.messageAdded({ role, content: `message ${i}: ${'lorem ipsum '.repeat(8)}` }),
    );
  }
  const input = join(dir, 'big.json');
  const output = join(dir, 'big.html');
  writeFileSync(input, JSON.stringify(encodeEnvelope(log)));
  const t0 = performance.now();
  const template = await pageTemplate();
  const built = runInspect({
    argv: ['inspect', input, '--html', output],
    readText: (file: string) => readFileSync(file, 'utf8'),
    isTTY: false,
    env: {},
    pageTemplate: () => template,
    writeText: (file: string, text: string) => writeFileSync(file, text),
  } as never);
  if (built.code !== 0) throw new Error(built.stderr);
  console.log(
    `--html on ${STEPS} steps: ${((performance.now() - t0) / 1000).toFixed(1)} s, page ${(readFileSync(output).length / 1e6).toFixed(1)} MB`,
  );

  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let t = performance.now();
  await page.goto(pathToFileURL(output).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  console.log(`ready: ${(performance.now() - t).toFixed(0)} ms`);
  const go = async (label: string, act: () => Promise<void>, step: number) => {
    const start = performance.now();
    await act();
    await page.waitForSelector(`body[data-step="${step}"]`, { timeout: 60_000 });
    console.log(`${label.padEnd(28)} ${(performance.now() - start).toFixed(0)} ms`);
  };
  await go('slider to 5,000', () => page.locator('#slider').fill('5000'), 5000);
  for (let i = 1; i <= 3; i++)
    await go(`→ to ${5000 + i}`, () => page.keyboard.press('ArrowRight'), 5000 + i);
  await go('End (10,000)', () => page.keyboard.press('End'), STEPS);
  await go('← to 9,999', () => page.keyboard.press('ArrowLeft'), STEPS - 1);
  await go('Home (0)', () => page.keyboard.press('Home'), 0);
  await go('slider to 7,777', () => page.locator('#slider').fill('7777'), 7777);
  t = performance.now();
  await browser.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
