/**
 * The inspector page's usage and cost (issue #29 §3), in headless Chromium (Debian's `chromium`,
 * driven by playwright-core): each step that records a model call's usage shows it under the
 * step's figures (tokens sent, share read from the cache, cache writes, output, and the cost at
 * the prices `--prices` passed in), the bar under the chart the total, and its prices field takes
 * pasted JSON prices (a problem named beside it, no cost until fixed). A log without usage shows
 * none of it. Fails (never skips) when Chromium cannot start.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventLog } from 'conversation-memory';
import type { TokenPrices } from 'conversation-memory/tokens';
import { timelineRows, usageFigures, usageText, usageTotal } from '../../src/inspector/model';
import type { StepUsage } from '../../src/inspector/model';
import { launchChromium } from '../support/chromium';
import { writeInspectorPage } from '../support/inspectorPage';
import { recordedLog } from '../support/inspectorLog';
import { usageLog } from '../support/inspectorUsageLog';

const sonnet: TokenPrices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
const haiku: TokenPrices = { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 };

let browser: Browser;
let log: EventLog;
let pricedPage: string;
let plainUsagePage: string;
let noUsagePage: string;
const errors: string[] = [];

beforeAll(async () => {
  log = await usageLog();
  const dir = mkdtempSync(join(tmpdir(), 'cm-usage-page-'));
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify(sonnet));
  pricedPage = await writeInspectorPage(log, 'usage-priced', ['--prices', prices]);
  plainUsagePage = await writeInspectorPage(log, 'usage-plain');
  noUsagePage = await writeInspectorPage(recordedLog(), 'no-usage');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const open = async (file: string): Promise<Page> => {
  const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(pathToFileURL(file).href);
  await tab.waitForSelector('body[data-ready="true"]');
  return tab;
};

const goTo = async (tab: Page, step: number): Promise<void> => {
  await tab.locator('#slider').fill(String(step));
  await tab.waitForSelector(`body[data-step="${step}"]`);
};

const stepLine = (step: number, prices?: TokenPrices): string => {
  const usage = timelineRows(log)[step]?.usage ?? null;
  return usage === null ? '' : `usage: ${usageText(usageFigures(usage, prices))}`;
};

const totalLine = (prices?: TokenPrices): string =>
  `usage, 3 steps: ${usageText(usageFigures(usageTotal(timelineRows(log)) as StepUsage, prices))}`;

describe('the inspector page: usage and cost per step', () => {
  it('shows each step’s usage with its cost at the CLI’s prices, and the total; nothing on other steps', async () => {
    const tab = await open(pricedPage);
    expect(await tab.locator('#prices').inputValue()).toBe(JSON.stringify(sonnet));
    expect(await tab.locator('#usage-total').innerText()).toBe(totalLine(sonnet));
    expect(totalLine(sonnet)).toMatch(/, cost 0\.0109$/);
    const heights = new Set<number>();
    for (let step = 0; step <= log.length; step++) {
      await goTo(tab, step);
      expect(await tab.locator('#step-usage').textContent()).toBe(stepLine(step, sonnet));
      heights.add((await tab.locator('#step-line').boundingBox())?.height ?? -1);
    }
    expect(stepLine(4, sonnet)).toBe(
      'usage: sent 1300 tokens, 84.6% from cache, 150 written to cache, 15 out, cost 0.00127',
    );
    // A step with a usage and one without take the same room: nothing moves while stepping.
    expect(heights.size).toBe(1);
    await tab.close();
    expect(errors).toEqual([]);
  });

  it('prices pasted in the field cost every step; a problem is named, and nothing is costed', async () => {
    const tab = await open(plainUsagePage);
    await goTo(tab, 4);
    expect(await tab.locator('#step-usage').textContent()).toBe(stepLine(4));
    expect(await tab.locator('body').getAttribute('data-cost')).toBe('off');
    const field = tab.locator('#prices');
    await field.fill(JSON.stringify(haiku));
    expect(await tab.locator('#step-usage').textContent()).toBe(stepLine(4, haiku));
    expect(await tab.locator('#usage-total').innerText()).toBe(totalLine(haiku));
    expect(await tab.locator('#prices-problem').textContent()).toBe('');
    const problems: readonly [string, RegExp][] = [
      ['{"input": 1', /^not JSON: /],
      [
        '{"input": 1, "cachedInput": 0.1, "cacheWrite": 1.25, "output": "5"}',
        /^prices\.output must be a finite number of at least 0 \(per million tokens\), received "5"$/,
      ],
      [
        '{"input": -1, "cachedInput": 0.1, "cacheWrite": 1.25, "output": 5}',
        /^prices\.input must be a finite number of at least 0 \(per million tokens\), received -1$/,
      ],
      ['[1, 0.1, 1.25, 5]', /^prices must be an object, received an array of length 4$/],
    ];
    for (const [text, problem] of problems) {
      await field.fill(text);
      expect(await tab.locator('#prices-problem').textContent()).toMatch(problem);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await tab.locator('#step-usage').textContent()).toBe(stepLine(4));
      expect(await tab.locator('#usage-total').innerText()).not.toContain('cost');
    }
    await field.fill('');
    expect(await tab.locator('#prices-problem').textContent()).toBe('');
    expect(await tab.locator('#usage-total').innerText()).toBe(totalLine());
    // In the field, the arrow keys are the field's own: the step does not move.
    await field.fill(JSON.stringify(haiku));
    await field.press('ArrowLeft');
    await field.press('Home');
    expect(await tab.locator('body').getAttribute('data-step')).toBe('4');
    await tab.close();
    expect(errors).toEqual([]);
  });

  it('a log without usage shows no usage line, no total and no prices field', async () => {
    const tab = await open(noUsagePage);
    await goTo(tab, 5);
    expect(await tab.locator('#usage-bar').isVisible()).toBe(false);
    expect(await tab.locator('#step-usage').isVisible()).toBe(false);
    await tab.close();
    expect(errors).toEqual([]);
  });
});
