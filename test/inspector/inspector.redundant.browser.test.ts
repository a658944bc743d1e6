/**
 * The inspector page under `prune: 'redundant'`, in headless Chromium (Debian's `chromium`, driven
 * by playwright-core): the header names the policy, each message the step removed as redundant is
 * labelled `redundant of #P` with its twin's position (as the model's `duplicateOf` says), and the
 * step's diff lists them the same way. Fails (never skips) when Chromium cannot start.
 */
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowAt } from '../../src/inspector/model';
import { launchChromium } from '../support/chromium';
import { writeInspectorPage } from '../support/inspectorPage';
import { redundantLog } from '../support/inspectorLog';

const log = redundantLog();

let browser: Browser;
let pageFile: string;
const errors: string[] = [];

beforeAll(async () => {
  pageFile = await writeInspectorPage(log, 'redundant');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the inspector page: messages removed as redundant', () => {
  it('labels each with its twin, in the trimmed list and the diff, and names the policy', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(pathToFileURL(pageFile).href);
    await tab.waitForSelector('body[data-ready="true"]');
    expect(await tab.locator('#about').innerText()).toContain(
      'prune redundant (threshold 0.9, embedder lexical)',
    );
    await tab.keyboard.press('End');
    await tab.waitForSelector(`body[data-step="${log.length}"]`);
    const expected = windowAt(log, log.length).trimmed;
    expect(expected.map((t) => t.duplicateOf)).toEqual([4, 5]);
    const trimmed = await tab.evaluate(() =>
      Array.from(document.querySelectorAll('#trimmed .bubble')).map((bubble) => ({
        position: bubble.getAttribute('data-position'),
        rule: bubble.getAttribute('data-rule'),
        label: bubble.querySelector('.mark')?.textContent,
        text: bubble.querySelector('.text')?.textContent,
      })),
    );
    expect(trimmed).toEqual(
      expected.map((t) => ({
        position: String(t.position),
        rule: 'redundant',
        label: `redundant of #${String(t.duplicateOf)}`,
        text: t.message.role === 'tool' ? 'alpha beta gamma delta' : expect.any(String),
      })),
    );
    expect(await tab.locator('#diff .diff-trimmed').innerText()).toBe(
      'trimmed: #1 (redundant of #4), #2 (redundant of #5)',
    );
    // One step back, nothing was removed as redundant yet.
    await tab.keyboard.press('ArrowLeft');
    await tab.waitForSelector(`body[data-step="${log.length - 1}"]`);
    expect(await tab.locator('#trimmed .bubble[data-rule="redundant"]').count()).toBe(0);
    await tab.close();
    expect(errors).toEqual([]);
  });
});
