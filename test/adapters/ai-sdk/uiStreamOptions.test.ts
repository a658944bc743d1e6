/**
 * The values of the chat UI's options (issue #31, refused since the options inventory covers
 * them): a callback that is not a function, metadata that is not an object, a store without the
 * methods the call uses, a status or headers a response cannot have, a signal that is not an
 * `AbortSignal`, an IndexedDB name or delay of the wrong kind. Each is a `MemoryArgumentError`
 * that names the call, the option and the value, thrown before anything runs (the agent's stream
 * is not started). Unknown keys and unreadable options are the inventory's
 * (test/surface/*.inventory.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { MemoryArgumentError, type AgentStreamEvent } from 'conversation-memory';
import {
  createMemoryUIMessageStreamStore,
  resumeUIMessageStream,
  resumeUIMessageStreamResponse,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from 'conversation-memory/ai-sdk';
import { createIndexedDbStorage } from 'conversation-memory/zustand';
import { rejection } from '../../helpers';

/** A run that records whether anything pulled it. */
const watchedRun = () => {
  const seen = { started: false };
  async function* events(): AsyncGenerator<AgentStreamEvent> {
    seen.started = true;
    yield { type: 'text-delta', text: 'Hi' };
  }
  return { stream: events(), seen };
};

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

const store = createMemoryUIMessageStreamStore();

describe('toUIMessageStream and toUIMessageStreamResponse: option values', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['onError', { onError: 'Sorry.' }, 'options.onError must be a function, received "Sorry."'],
    ['onFinish', { onFinish: {} }, 'options.onFinish must be a function, received'],
    ['onStoreError', { onStoreError: 1 }, 'options.onStoreError must be a function, received 1'],
    ['messageMetadata', { messageMetadata: [1] }, 'options.messageMetadata must be a JSON object'],
    ['messageId', { messageId: '' }, 'options.messageId must be a non-empty string'],
    [
      'store',
      { store: { read: () => null }, chatId: 'c1' },
      'options.store must be a UIMessageStreamStore (createMemoryUIMessageStreamStore(), new RedisUIMessageStreamStore(...)) with a begin method',
    ],
    ['chatId', { store, chatId: '' }, 'chatId must be a non-empty string'],
    ['chatId without store', { chatId: 'c1' }, 'chatId is given without a store'],
  ];
  it.each(cases)('%s', (_name, options, text) => {
    for (const [api, call] of [
      ['toUIMessageStream', toUIMessageStream],
      ['toUIMessageStreamResponse', toUIMessageStreamResponse],
    ] as const) {
      const { stream, seen } = watchedRun();
      const error = thrown(() => call(stream, options as never));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain(`[conversation-memory] ${api}: `);
      expect((error as Error).message).toContain(text);
      expect(seen.started).toBe(false);
    }
  });

  it('a response refuses a status or headers it cannot have', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 700 }, 'options.status must be a whole number from 200 to 599, received 700'],
      [{ status: '200' }, 'options.status must be a whole number from 200 to 599, received "200"'],
      [{ headers: 'x' }, 'options.headers must be an object of header names and string values'],
      [{ headers: { 'x-n': 1 } }, 'options.headers["x-n"] must be a string, received 1'],
    ];
    for (const [options, text] of cases) {
      const { stream, seen } = watchedRun();
      expect(() => toUIMessageStreamResponse(stream, options as never)).toThrow(text);
      expect(seen.started).toBe(false);
    }
    // The good ones are used.
    const { stream } = watchedRun();
    const response = toUIMessageStreamResponse(stream, {
      status: 201,
      headers: { 'x-chat': 'c1' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-chat')).toBe('c1');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  });
});

describe('resumeUIMessageStream(Response): option values', () => {
  it.each([
    ['resumeUIMessageStream', resumeUIMessageStream],
    ['resumeUIMessageStreamResponse', resumeUIMessageStreamResponse],
  ] as const)('%s', async (api, resume) => {
    const cases: [unknown, string][] = [
      [undefined, "options must be an object such as { store, chatId: 'chat-1' }"],
      [{ chatId: 'c1' }, 'options.store must be a UIMessageStreamStore'],
      [{ store: { begin: () => 'x' }, chatId: 'c1' }, 'with a read method'],
      [{ store }, 'chatId must be a non-empty string'],
      [{ store, chatId: 'c1', signal: {} }, 'options.signal must be an AbortSignal, received'],
    ];
    for (const [options, text] of cases) {
      const error = await rejection(resume(options as never));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain(`[conversation-memory] ${api}: `);
      expect((error as Error).message).toContain(text);
    }
  });
});

describe('createIndexedDbStorage: option values', () => {
  it('refuses a name, delay or report of the wrong kind', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ databaseName: '' }, 'options.databaseName must be a non-empty string, received ""'],
      [{ storeName: 5 }, 'options.storeName must be a non-empty string, received 5'],
      [{ batchDelayMs: -1 }, 'options.batchDelayMs must be a number of milliseconds, 0 or more'],
      [{ batchDelayMs: Number.NaN }, 'options.batchDelayMs must be a number of milliseconds'],
      [{ onError: 'log' }, 'options.onError must be a function, received "log"'],
    ];
    for (const [options, text] of cases) {
      const error = thrown(() => createIndexedDbStorage(options as never));
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('[conversation-memory] createIndexedDbStorage: ');
      expect((error as Error).message).toContain(text);
    }
  });
});
