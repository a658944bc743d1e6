/**
 * The inspector page under `prune: 'redundant'`, in headless Chromium (Debian's `chromium`, driven
 * by playwright-core): the header names the policy, each message the step removed as redundant is
 * labelled `redundant of #P` with its twin's position (as the model's `duplicateOf` says), and the
 * step's diff lists them the same way. Fails (never skips) when Chromium cannot start.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEnvelope } from 'conversation-memory';
import { runInspect } from '../../src/inspector/cli/inspect';
import { windowAt } from '../../src/inspector/model';
import { pageTemplate } from '../support/inspectorPage';
import { redundantLog } from '../support/inspectorLog';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'cm-redundant-e2e-'));
const log = redundantLog();
const input = join(dir, 'redundant.json');
writeFileSync(input, JSON.stringify(encodeEnvelope(log)));
const pageFile = join(dir, 'redundant.html');

let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  const template = await pageTemplate();
  const made = runInspect({
    argv: ['inspect', input, '--html', pageFile],
    readText: (file: string) => readFileSync(file, 'utf8'),
    isTTY: false,
    env: {},
    pageTemplate: () => template,
    writeText: (file: string, text: string) => writeFileSync(file, text),
  });
  expect(made.code, made.stderr).toBe(0);
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  } catch (error) {
    throw new Error(
      `Chromium could not be started from ${CHROMIUM} (set CHROMIUM_PATH, or apt-get install chromium): ${String(error)}`,
      { cause: error },
    );
  }
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
