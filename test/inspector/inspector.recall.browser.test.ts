/**
 * The inspector page with recall, in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): the model view's "recall, tokens" field shows the recall block at each step
 * as `modelViewAt(log, n, target, undefined, budget)` does (marked with the positions it quotes),
 * none before the fact leaves the window, and none once the field is cleared. Fails (never
 * skips) when Chromium cannot start. Screenshot: test/.artifacts/inspector-recalled.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelViewAt } from '../../src/inspector/model';
import { launchChromium } from '../support/chromium';
import { writeInspectorPage } from '../support/inspectorPage';
import { recallLog } from '../support/recallLog';

const artifacts = fileURLToPath(new URL('../.artifacts/', import.meta.url));
const log = recallLog();

let browser: Browser;
let pageFile: string;
const errors: string[] = [];

beforeAll(async () => {
  pageFile = await writeInspectorPage(log, 'recalled');
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

describe('the inspector page: recall', () => {
  it('the field shows the recall block as modelViewAt does, at each step', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(pathToFileURL(pageFile).href);
    await tab.waitForSelector('body[data-ready="true"]');
    await tab.keyboard.press('End');
    await tab.waitForSelector(`body[data-step="${log.length}"]`);
    const shown = () =>
      tab.evaluate(() =>
        Array.from(document.querySelectorAll('#view .bubble.recalled')).map((bubble) => ({
          badge: bubble.querySelector('.mark')?.textContent,
          text: bubble.querySelector('.text')?.textContent,
          title: bubble.getAttribute('title'),
        })),
      );
    expect(await shown()).toEqual([]);
    await tab.locator('#recall-budget').fill('200');
    await tab.waitForSelector('body[data-recall="200"]', { timeout: 5_000 }).catch(() => {
      throw new Error(`no recall shown; page errors: ${errors.join(' | ')}`);
    });
    const expected = modelViewAt(log, log.length, 'openai', undefined, 200);
    const block = expected.entries.find((e) => e.kind === 'recalled');
    expect(await shown()).toEqual([
      {
        badge: 'recalled #0',
        text: block?.message.content,
        // The page has no encoding: it estimates the block's tokens (the CLI counts them).
        title: expect.stringMatching(
          /^recalled #0 \(\d+ tokens\) for "Which bakery made the cake for my sister\?"$/,
        ),
      },
    ]);
    expect(await tab.locator('#view-figures').innerText()).toBe(
      'openai: 7 messages sent · 0 left out · 0 answered · recalled',
    );
    await tab.screenshot({ path: join(artifacts, 'inspector-recalled.png') });
    // At step 6 the fact is still in the window: nothing recalled; the field stays.
    await tab.locator('#recall-budget').blur();
    await tab.locator('#slider').fill('6');
    await tab.waitForSelector('body[data-step="6"]');
    expect(await shown()).toEqual([]);
    // Cleared: no recall.
    await tab.keyboard.press('End');
    await tab.waitForSelector(`body[data-step="${log.length}"]`);
    await tab.locator('#recall-budget').fill('');
    await tab.waitForSelector('body[data-recall="off"]');
    expect(await shown()).toEqual([]);
    await tab.close();
    expect(errors).toEqual([]);
  });
});
