/**
 * examples/chat-server.ts in-process: its `POST /chat` read back with fetch and
 * `readServerSentEvents`, its errors, a client that leaves mid-stream, and its page in headless
 * Chromium reading the stream as a browser does.
 */
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from 'conversation-memory';
import { chat, startChatServer } from '../../examples/chat-server';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

let server: Awaited<ReturnType<typeof startChatServer>>;
beforeAll(async () => {
  server = await startChatServer(0);
});
afterAll(() => server.close());

const deltas = (events: readonly AgentStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));

describe('examples/chat-server.ts', () => {
  it('streams a reply word by word, then finish with the run result', async () => {
    const response = await fetch(`${server.url}/chat`, {
      method: 'POST',
      body: JSON.stringify({ message: 'my name is Grace' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    await response.body?.cancel();
    const events = await chat(server.url, 'what is my name?');
    expect(deltas(events)).toEqual(['Your ', 'name ', 'is ', 'Grace.']);
    const last = events.at(-1);
    expect(last?.type).toBe('finish');
    expect(last?.type === 'finish' && last.result.message.content).toBe('Your name is Grace.');
  });

  it('streams a tool turn: the call, its result, then the answer', async () => {
    const events = await chat(server.url, '/call get_time {"city": "Rome"}');
    const kinds = events.map((event) => event.type).filter((type) => type !== 'memory-effect');
    expect(kinds.slice(0, 2)).toEqual(['tool-call', 'tool-result']);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      toolName: 'get_time',
      output: 'noon in Rome',
      isError: false,
    });
    expect(deltas(events).join('')).toBe('get_time returned noon in Rome.');
    expect(kinds.at(-1)).toBe('finish');
  });

  it('answers a body without a message with 400, and other routes with 404', async () => {
    const bad = await fetch(`${server.url}/chat`, { method: 'POST', body: '{"message": 3}' });
    expect(bad.status).toBe(400);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('a client that leaves mid-stream does not break the next conversation turn', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/chat`, {
      method: 'POST',
      body: JSON.stringify({ message: 'tell me a long story about streams' }),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    const events = await chat(server.url, 'what is my name?');
    expect(deltas(events).join('')).toBe('Your name is Grace.');
  });

  it('its page reads the stream in a browser and shows the reply as it arrives', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.fill('#message', 'my name is Ada');
      await page.click('button');
      await page.waitForFunction(() =>
        document.getElementById('log')?.textContent?.includes('Nice to meet you, Ada.'),
      );
      await page.fill('#message', '/call get_time {"city": "Oslo"}');
      await page.click('button');
      await page.waitForFunction(() =>
        document.getElementById('log')?.textContent?.includes('get_time returned noon in Oslo.'),
      );
      const lines = await page.locator('#log p').allTextContents();
      expect(lines).toEqual([
        'You: my name is Ada',
        'Agent: Nice to meet you, Ada.',
        'You: /call get_time {"city": "Oslo"}',
        'Agent: get_time returned noon in Oslo.',
        '  → get_time {"city":"Oslo"}',
        '  ← noon in Oslo',
      ]);
    } finally {
      await browser.close();
    }
  });
});
