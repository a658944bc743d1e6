/**
 * The inspector page with masking, in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): the model view's "mask, keep last" field masks stale tool results as
 * `modelViewAt(log, n, target, { keepLast })` does; each masked result is shown as its
 * placeholder at its position, marked with why, while the retained window beside it still shows
 * the original; clearing the field shows the results as memory holds them. Keys pressed in the
 * target selector or the mask field are theirs, never a step (issue #27 §12). Fails (never skips)
 * when Chromium cannot start. Screenshot: test/.artifacts/inspector-masked.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelViewAt } from '../../src/inspector/model';
import { launchChromium } from '../support/chromium';
import { writeInspectorPage } from '../support/inspectorPage';
import { maskLog } from '../support/inspectorLog';

const artifacts = fileURLToPath(new URL('../.artifacts/', import.meta.url));
const log = maskLog();

let browser: Browser;
let pageFile: string;
const errors: string[] = [];

beforeAll(async () => {
  pageFile = await writeInspectorPage(log, 'masked');
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

describe('the inspector page: masked tool results', () => {
  it('the field masks the view as modelViewAt does; the window keeps the originals', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(pathToFileURL(pageFile).href);
    await tab.waitForSelector('body[data-ready="true"]');
    await tab.keyboard.press('End');
    await tab.waitForSelector(`body[data-step="${log.length}"]`);
    const shown = () =>
      tab.evaluate(() =>
        Array.from(document.querySelectorAll('#view .bubble.masked')).map((bubble) => ({
          position: bubble.getAttribute('data-position'),
          reason: bubble.getAttribute('data-masked'),
          badge: bubble.querySelector('.mark')?.textContent,
          text: bubble.querySelector('.text')?.textContent,
          title: bubble.getAttribute('title'),
        })),
      );
    expect(await shown()).toEqual([]);
    await tab.locator('#mask-keep-last').fill('2');
    await tab.waitForSelector('body[data-mask="2"]');
    const expected = modelViewAt(log, log.length, 'openai', { keepLast: 2 });
    const masked = expected.entries.filter((e) => e.kind === 'masked');
    expect(await shown()).toEqual([
      {
        position: '3',
        reason: 'repeat',
        badge: 'masked: repeat of c3',
        text: masked[0]?.message.content,
        title: 'masked #3 tool result of call c1 (read_file): repeat of call c3',
      },
      {
        position: '7',
        reason: 'stale',
        badge: 'masked: stale',
        text: masked[1]?.message.content,
        title: 'masked #7 tool result of call c2 (read_file): stale',
      },
    ]);
    expect(await tab.locator('#view-figures').innerText()).toBe(
      'openai: 14 messages sent · 0 left out · 0 answered · 2 masked',
    );
    // The retained window shows the originals at the same positions.
    const original = (position: number) =>
      tab.locator(`#window .bubble[data-position="${position}"] .text`).textContent();
    expect(await original(3)).toBe('alpha '.repeat(20));
    expect(await original(7)).toBe('bravo '.repeat(20));
    // The masking stays while stepping back (the keys step once the field has lost the focus);
    // keep last 0 masks c3 too.
    await tab.locator('#mask-keep-last').blur();
    await tab.keyboard.press('ArrowLeft');
    await tab.waitForSelector(`body[data-step="${log.length - 1}"]`);
    await tab.locator('#mask-keep-last').fill('0');
    await tab.waitForSelector('body[data-mask="0"]');
    expect((await shown()).map((m) => m.position)).toEqual(['3', '7', '9']);
    await tab.locator('#mask-keep-last').blur();
    await tab.keyboard.press('End');
    await tab.waitForSelector(`body[data-step="${log.length}"]`);
    await tab.screenshot({ path: join(artifacts, 'inspector-masked.png') });
    // Cleared: no masking.
    await tab.locator('#mask-keep-last').fill('');
    await tab.waitForSelector('body[data-mask="off"]');
    expect(await shown()).toEqual([]);
    await tab.close();
    expect(errors).toEqual([]);
  });

  it('arrow keys, Home and End in the target selector or the mask field are theirs: they do not step', async () => {
    const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(pathToFileURL(pageFile).href);
    await tab.waitForSelector('body[data-ready="true"]');
    const step = () => tab.evaluate(() => document.body.dataset['step']);
    const middle = Math.floor(log.length / 2);
    await tab.locator('#slider').fill(String(middle));
    await tab.waitForSelector(`body[data-step="${middle}"]`);
    const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End', 'ArrowLeft', 'ArrowUp', 'ArrowDown'];
    // In the selector: Chromium's own keys may pick another target, but never another step.
    await tab.locator('#target').focus();
    for (const key of keys) {
      await tab.keyboard.press(key);
      expect(await step(), `${key} in the target selector`).toBe(String(middle));
    }
    // In the mask field: the caret moves, the number changes, the step stays.
    await tab.locator('#mask-keep-last').fill('3');
    for (const key of keys) {
      await tab.keyboard.press(key);
      expect(await step(), `${key} in the mask field`).toBe(String(middle));
    }
    // Outside a form control the keys step, as before.
    await tab.locator('#mask-keep-last').blur();
    await tab.keyboard.press('ArrowLeft');
    expect(await step()).toBe(String(middle - 1));
    await tab.keyboard.press('End');
    expect(await step()).toBe(String(log.length));
    // The slider is the step control: its keys step.
    await tab.locator('#slider').focus();
    await tab.keyboard.press('Home');
    expect(await step()).toBe('0');
    await tab.keyboard.press('ArrowRight');
    expect(await step()).toBe('1');
    await tab.close();
    expect(errors).toEqual([]);
  });
});
