/**
 * The inspector page end to end in headless Chromium (Debian's `chromium`, driven by
 * playwright-core; no browser is downloaded): a page written by `inspect --html` for the recorded
 * conversation, stepped with the keyboard, the slider and the step list; the window, trimmed
 * markers, token figures and the chart's marker checked against the shared model at each step;
 * hostile text shown as text; no request leaves the page; "fork here" read back by the CLI.
 * Fails (never skips) when Chromium cannot start. Screenshots: test/.artifacts/.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  encodeEnvelope,
  fork,
  memoryActions,
  userMessage,
} from 'conversation-memory';
import { runInspect } from '../src/inspector/cli/inspect';
import { timelineRows, windowAt } from '../src/inspector/model';
import { pageTemplate } from './support/inspectorPage';
import { recordedLog } from './support/inspectorLog';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('./.artifacts/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cm-page-e2e-'));
const HOSTILE = '</script><script>alert(1)</script><!-- \u2028 <img src=x onerror=alert(2)>';
const log = appendAction(recordedLog(), memoryActions.messageAdded(userMessage(HOSTILE)));
const input = join(dir, 'recorded.json');
writeFileSync(input, JSON.stringify(encodeEnvelope(log), null, 2));
const pageFile = join(dir, 'recorded.html');

const io = (argv: string[], template = '') => ({
  argv,
  readText: (file: string) => readFileSync(file, 'utf8'),
  isTTY: false,
  env: {},
  pageTemplate: () => template,
  writeText: (file: string, text: string) => writeFileSync(file, text),
});

let browser: Browser;
let page: Page;
const requests: string[] = [];
const dialogs: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  const made = runInspect(io(['inspect', input, '--html', pageFile], await pageTemplate()));
  expect(made.code, made.stderr).toBe(0);
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  } catch (error) {
    throw new Error(
      `Chromium could not be started from ${CHROMIUM} (set CHROMIUM_PATH, or apt-get install chromium): ${String(error)}`,
      { cause: error },
    );
  }
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pathToFileURL(pageFile).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/** What the page shows of the current step, read from the DOM. */
const shown = () =>
  page.evaluate(() => {
    const all = (selector: string, attribute: string) =>
      Array.from(document.querySelectorAll(selector)).map((node) => node.getAttribute(attribute));
    const marker = document.getElementById('chart-marker');
    const tokensLine = document.querySelector('polyline.tokens')?.getAttribute('points') ?? '';
    return {
      step: document.body.dataset['step'],
      positions: all('#window .bubble', 'data-position'),
      tokens: all('#window .bubble', 'data-tokens').map(Number),
      pinned: all('#window .bubble.pinned', 'data-position'),
      summaries: all('#window .bubble.summary', 'data-position'),
      groups: all('#window .group', 'data-group').map(Number),
      trimmedRules: all('#trimmed .bubble', 'data-rule'),
      trimmedPositions: all('#trimmed .bubble', 'data-position').map(Number),
      figures: document.getElementById('figures')?.textContent ?? '',
      slider: (document.getElementById('slider') as HTMLInputElement).value,
      markerStep: marker?.getAttribute('data-step'),
      markerX: marker?.getAttribute('x1'),
      points: tokensLine.split(' ').map((p) => p.split(',')[0]),
      selectedRow: document.querySelector('.step.selected')?.getAttribute('data-step'),
      diff: document.getElementById('diff')?.textContent ?? '',
    };
  });

/** Checks the page at step `n` against the shared model, and saves a screenshot. */
const check = async (n: number) => {
  await page.waitForSelector(`body[data-step="${n}"]`);
  const view = windowAt(log, n);
  const got = await shown();
  expect(got.step).toBe(String(n));
  expect(got.slider).toBe(String(n));
  expect(got.selectedRow).toBe(String(n));
  expect(got.positions).toEqual(
    view.entries.map((e) => (e.position === null ? 'summary' : String(e.position))),
  );
  expect(got.tokens).toEqual(view.entries.map((e) => e.tokens));
  expect(got.pinned).toEqual(view.entries.filter((e) => e.pinned).map((e) => String(e.position)));
  expect(got.summaries).toEqual(view.summary === null ? [] : ['summary']);
  expect(got.groups).toEqual([
    ...new Set(view.entries.flatMap((e) => (e.group === null ? [] : [e.group]))),
  ]);
  expect(got.trimmedRules).toEqual(view.trimmed.map((t) => t.rule));
  expect(got.trimmedPositions).toEqual(view.trimmed.map((t) => t.position));
  const { row } = view;
  expect(got.figures).toContain(
    `window ${row.messages}/${row.maxMessages} messages · ${row.tokens}/${row.maxTokens} tokens`,
  );
  expect(got.markerStep).toBe(String(n));
  expect(got.markerX).toBe(got.points[n]);
  await page.screenshot({ path: join(artifacts, `inspector-step-${n}.png`) });
  return { got, view };
};

describe('the inspector page in Chromium', () => {
  it('steps with the keyboard, the slider and the list; shows windows, trims, figures, marker', async () => {
    await check(0);
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const six = await check(6);
    expect(six.got.trimmedRules).toEqual(['messageLimit', 'startOn']);
    await page.locator('#slider').fill('8');
    const eight = await check(8);
    expect(eight.got.summaries).toEqual(['summary']);
    expect(eight.got.pinned).toEqual(['0']);
    expect(eight.got.groups).toEqual([4]);
    expect(eight.got.diff).toContain('summary changed: The user is Alice.');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const ten = await check(10);
    expect(ten.got.trimmedRules).toEqual(['tokenLimit', 'tokenLimit', 'tokenLimit']);
    await page.keyboard.press('End');
    await check(log.length);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const fifteen = await check(15);
    expect(fifteen.got.trimmedRules).toEqual(['toolPairBoundary', 'toolPairBoundary']);
    await page.locator('.step[data-step="16"]').click();
    await check(16);
    await page.keyboard.press('Home');
    await check(0);
    await page.keyboard.press('ArrowLeft');
    await check(0);
  });

  it('shows hostile text as text: no element made from it, no dialog', async () => {
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-step="${log.length}"]`);
    const texts = await page.locator('#window .bubble .text').allTextContents();
    expect(texts).toContain(HOSTILE);
    expect(texts).toContain('<img src=x onerror=alert(1)>\u001b[31m');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('"fork here" downloads a log that inspect reads back', async () => {
    await page.locator('#slider').fill('10');
    await page.waitForSelector('body[data-step="10"]');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#fork').click(),
    ]);
    expect(download.suggestedFilename()).toBe('recorded-fork-at-10.json');
    const saved = join(dir, 'fork.json');
    await download.saveAs(saved);
    const result = runInspect(io(['inspect', saved, '--json']));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).rows).toEqual(timelineRows(fork(log, 10)));
    expect(readFileSync(saved, 'utf8')).toBe(
      `${JSON.stringify(encodeEnvelope(fork(log, 10)), null, 2)}\n`,
    );
  });

  it('no request leaves the page: only the file itself (and the fork download blob)', () => {
    expect(requests.length).toBeGreaterThan(0);
    for (const url of requests) expect(url).toMatch(/^(file:|data:|blob:)/);
    expect(requests.filter((url) => url.startsWith('file:'))).toEqual([
      pathToFileURL(pageFile).href,
    ]);
  });
});
