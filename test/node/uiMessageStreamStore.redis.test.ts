/**
 * `RedisUIMessageStreamStore` (issue #31 §3) against a real redis-server: the shared cases, a
 * reply written by another process and resumed here, and a stop requested here that stops the
 * run in the other process (the chat server behind a load balancer).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisUIMessageStreamStore } from 'conversation-memory/node';
import { resumeUIMessageStream } from 'conversation-memory/ai-sdk';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';
import { iterateStream } from '../support/readStream';
import { describeUIMessageStreamStore } from '../support/uiMessageStreamStoreCases';

let server: RedisTestServer;
let client: ReturnType<typeof createClient>;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url });
  await client.connect();
});
afterAll(async () => {
  await client?.quit();
  await server?.stop();
});

const make = (options: { ttl?: number; linger?: number; maxChunks?: number } = {}) =>
  new RedisUIMessageStreamStore({ client, prefix: `t${prefixes++}:`, pollMs: 10, ...options });

describeUIMessageStreamStore({ name: 'Redis', make });

const worker = fileURLToPath(new URL('../support/uiStreamWorker.ts', import.meta.url));

describe('RedisUIMessageStreamStore across processes', () => {
  it('a reply running in another process is resumed here from its start, and stopped from here', async () => {
    const prefix = `x${prefixes++}:`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', worker, server.url, prefix, 'chat-x'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const store = new RedisUIMessageStreamStore({ client, prefix, pollMs: 10 });
    await expect.poll(() => output, { timeout: 20_000 }).toContain('streaming');
    await new Promise((r) => setTimeout(r, 300));
    await expect.poll(async () => (await store.read('chat-x')) !== null).toBe(true);
    const resumed = await resumeUIMessageStream({ store, chatId: 'chat-x' });
    expect(resumed).not.toBeNull();
    const seen: string[] = [];
    for await (const chunk of iterateStream(resumed as ReadableStream)) {
      seen.push((chunk as { type: string }).type);
      if (seen.filter((type) => type === 'text-delta').length === 2) {
        expect(await store.requestStop('chat-x')).toBe(true);
      }
    }
    expect(seen[0]).toBe('start');
    expect(seen.slice(-2)).toEqual(['abort', 'finish']);
    expect(await exited).toBe(0);
    expect(output).toContain('kept: {"interrupted":true}');
  });
});
