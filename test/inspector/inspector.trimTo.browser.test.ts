/**
 * The inspector page under `trimTo` (issue #29), in headless Chromium (Debian's `chromium`, driven
 * by playwright-core): the header names the ratio when it is not 1. Fails (never skips) when
 * Chromium cannot start.
 */
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium';
import { writeInspectorPage } from '../support/inspectorPage';
import { steppedLog } from '../support/inspectorLog';

let browser: Browser;
let pageFile: string;
const errors: string[] = [];

beforeAll(async () => {
  pageFile = await writeInspectorPage(steppedLog(), 'stepped');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the inspector page: trimming in steps', () => {
  it('names trimTo in the header', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(pathToFileURL(pageFile).href);
    await tab.waitForSelector('body[data-ready="true"]');
    expect(await tab.locator('#about').innerText()).toMatch(/, toolPairs reference, trimTo 0\.5$/);
    await tab.close();
    expect(errors).toEqual([]);
  });
});
