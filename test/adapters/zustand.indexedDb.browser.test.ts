/**
 * `createIndexedDbStorage` (issue #31 §4) in real Chromium, with the real `zustand` `persist`: a
 * conversation persisted in IndexedDB and restored after a reload; writes batched into one
 * transaction; a damaged record reported and never overwritten; a full quota (forced through the
 * DevTools protocol) reported, the conversation kept in memory, and written once the quota is
 * lifted. Fails (never skips) when Chromium cannot start.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium';

let browser: Browser;
let server: Server;
let url = '';

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../support/indexedDbPage.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.text ?? '';
  server = createServer((req, res) => {
    if (req.url === '/app.js')
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const ready = async (page: Page): Promise<void> => {
  await page.goto(url);
  await page.waitForFunction(() => window.chat !== undefined);
};

/** The stored record of a conversation, read straight from IndexedDB. */
const stored = (page: Page, name: string) =>
  page.evaluate(
    (key) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open('chat-test', 1);
        open.onsuccess = () => {
          const get = open.result
            .transaction('conversations')
            .objectStore('conversations')
            .get(key);
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        };
        open.onerror = () => reject(open.error);
      }),
    name,
  );

describe('createIndexedDbStorage in Chromium', () => {
  it('persists a conversation as one record, batching writes, and restores it after a reload', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await ready(page);
    await page.evaluate(() => window.chat.open('trip'));
    const before = await page.evaluate(() => window.chat.transactions);
    await page.evaluate(() => {
      for (const text of ['one', 'two', 'three', 'four']) window.chat.say(text);
    });
    await page.evaluate(() => window.chat.flush());
    // Four changes within the batching delay: one write transaction.
    expect((await page.evaluate(() => window.chat.transactions)) - before).toBe(1);
    const record = await stored(page, 'trip');
    expect(typeof record).toBe('string');
    expect(String(record)).toContain('"four"');

    await page.reload();
    await page.waitForFunction(() => window.chat !== undefined);
    await page.evaluate(() => window.chat.open('trip'));
    expect(await page.evaluate(() => window.chat.contents())).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    expect(await page.evaluate(() => window.chat.errors)).toEqual([]);
    await context.close();
  });

  it('a damaged record is reported and never overwritten', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await ready(page);
    await page.evaluate(() => window.chat.open('other'));
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const open = indexedDB.open('chat-test', 1);
          open.onsuccess = () => {
            const tx = open.result.transaction('conversations', 'readwrite');
            tx.objectStore('conversations').put('{"not a memory', 'broken');
            tx.oncomplete = () => resolve();
          };
        }),
    );
    await page.evaluate(() => window.chat.open('broken'));
    expect((await page.evaluate(() => window.chat.errors)).join('\n')).toMatch(/^restore: /);
    await page.evaluate(() => window.chat.say('new message'));
    await page.evaluate(() => window.chat.flush());
    expect(await stored(page, 'broken')).toBe('{"not a memory');
    await context.close();
  });

  it('a full quota is reported, the conversation kept in memory, and written once there is room', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await ready(page);
    const cdp = await context.newCDPSession(page);
    await page.evaluate(() => window.chat.open('big'));
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: new URL(url).origin,
      quotaSize: 1024,
    });
    await page.evaluate(() => window.chat.say('x'.repeat(200_000)));
    await page.evaluate(() => window.chat.flush());
    expect(await page.evaluate(() => window.chat.errors)).toContain('QuotaExceededError');
    expect(await page.evaluate(() => window.chat.contents())).toEqual(['x'.repeat(200_000)]);
    expect(await stored(page, 'big')).toBeUndefined();

    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(url).origin });
    await page.evaluate(() => window.chat.say('after'));
    await page.evaluate(() => window.chat.flush());
    expect(String(await stored(page, 'big'))).toContain('"after"');
    await context.close();
  });
});
