/**
 * examples/ai-sdk-chat-server.ts end to end in headless Chromium, with the real `useChat` of
 * `@ai-sdk/react` (test/support/aiSdkChatPage.ts, bundled by esbuild): a message sent, its reply
 * streamed in, a tool result shown, the conversation shown again after a reload; a page reloaded
 * in mid-reply shows the whole reply (resume); a stop in mid-reply keeps the part streamed, marked
 * interrupted in memory, and the next message is answered. Fails (never skips) when Chromium
 * cannot start.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiSdkChatServer, type AiSdkChatServer } from '../../examples/ai-sdk-chat-server';
import { buildChatPage } from '../support/buildChatPage';
import { launchChromium } from '../support/chromium';

let browser: Browser;
let server: AiSdkChatServer;

beforeAll(async () => {
  const page = await buildChatPage();
  // Each text part waits 120 ms: a reply of 15 parts takes about 2 s, time to reload or stop.
  server = await startAiSdkChatServer({ page, paceMs: 120 });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The messages the page shows: role, id and text of each. */
const shown = (page: Page) =>
  page.$$eval('[data-role]', (nodes) =>
    nodes.map((node) => ({
      role: node.getAttribute('data-role'),
      id: node.getAttribute('data-id'),
      text: Array.from(node.querySelectorAll('.text'))
        .map((p) => p.textContent)
        .join(''),
      tools: Array.from(node.querySelectorAll('.tool')).map((p) => p.textContent),
    })),
  );

const send = async (page: Page, text: string): Promise<void> => {
  await page.fill('#input', text);
  await page.click('#send');
};

const statusIs = (page: Page, status: string) =>
  page.waitForFunction((s) => document.getElementById('status')?.textContent === s, status);

const textShown = (page: Page, text: string) =>
  page.waitForFunction((t) => document.getElementById('messages')?.textContent?.includes(t), text);

describe('examples/ai-sdk-chat-server.ts with useChat in Chromium', () => {
  it('streams a reply and a tool result, and shows the persisted conversation after a reload', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?chat=first`);
    await statusIs(page, 'ready');
    await send(page, 'my name is Ada');
    await textShown(page, 'Nice to meet you, Ada.');
    await statusIs(page, 'ready');
    await send(page, '/call get_time {"city": "Oslo"}');
    await textShown(page, 'get_time returned noon in Oslo.');
    await statusIs(page, 'ready');
    const before = await shown(page);
    expect(before.map(({ role, text }) => [role, text])).toEqual([
      ['user', 'my name is Ada'],
      ['assistant', 'Nice to meet you, Ada.'],
      ['user', '/call get_time {"city": "Oslo"}'],
      ['assistant', 'get_time returned noon in Oslo.'],
    ]);
    expect(before[3]?.tools).toEqual(['tool-get_time "noon in Oslo"']);

    await page.reload();
    await textShown(page, 'get_time returned noon in Oslo.');
    expect(await shown(page)).toEqual(before);
    await page.close();
  });

  it('a page reloaded in mid-reply shows the whole reply (resume)', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?chat=resumed`);
    await statusIs(page, 'ready');
    await send(page, 'tell me a long story about streams');
    await textShown(page, 'You said:');
    await page.reload();
    const whole = 'You said: "tell me a long story about streams". I can see 0 earlier messages.';
    await textShown(page, whole);
    await statusIs(page, 'ready');
    const after = await shown(page);
    expect(after.map(({ role, text }) => [role, text])).toEqual([
      ['user', 'tell me a long story about streams'],
      ['assistant', whole],
    ]);
    const stored = await server.events.load('resumed');
    expect(stored?.state.messages.map((m) => [m.role, m.content, m.id])).toEqual([
      ['user', 'tell me a long story about streams', after[0]?.id],
      ['assistant', whole, after[1]?.id],
    ]);
    await page.close();
  });

  it('stop in mid-reply keeps the streamed part, marked interrupted, and the next message is answered', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/?chat=stopped`);
    await statusIs(page, 'ready');
    await send(page, 'tell me a long story about streams');
    await textShown(page, 'You said:');
    await page.click('#stop');
    await statusIs(page, 'ready');
    const finishes = await page.evaluate(() => window.finishes);
    expect(finishes).toHaveLength(1);
    expect(finishes[0]?.isAbort).toBe(true);
    // The run stops on the server: memory keeps what was streamed, marked interrupted.
    await expect
      .poll(async () => (await server.events.load('stopped'))?.state.messages.length)
      .toBe(2);
    const reply = (await server.events.load('stopped'))?.state.messages[1];
    expect(reply?.metadata?.['interrupted']).toBe(true);
    expect(reply?.content?.startsWith('You said:')).toBe(true);
    expect(reply?.content).not.toContain('earlier messages.');

    await send(page, 'hello again');
    await textShown(page, 'You said: "hello again". I can see 2 earlier messages.');
    await statusIs(page, 'ready');
    await page.close();
  });
});
