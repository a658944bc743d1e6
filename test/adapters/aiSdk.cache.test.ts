/**
 * `aiSdkProvider` sends `request.cache` (issue #29 §2), end to end with the real AI SDK providers
 * against the loopback servers:
 *
 * - an Anthropic model (`@ai-sdk/anthropic`): the view's breakpoints as
 *   `providerOptions.anthropic.cacheControl`, which reach the Messages API as `cache_control` on
 *   exactly the blocks the `anthropicProvider` adapter marks (the system prompt too when there is
 *   room), with the same ttl, from `complete` and `stream`, for a table of requests;
 * - an OpenAI model (`@ai-sdk/openai`): the cache key as `prompt_cache_key` (bounded as
 *   `openaiProvider` bounds it);
 * - another provider behind the OpenAI wire format: nothing more;
 * - no `cache`: the request of before, with no cache field at all.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  createMemory,
  modelView,
  setSummary,
  toolMessage,
  userMessage,
  type CompletionCache,
  type CompletionRequest,
  type Message,
  type Provider,
} from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import OpenAI from 'openai';
import { cacheBreakpointsOf } from '../support/loopback/anthropicCache';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';

let anthropicServer: AnthropicServer;
let openaiServer: OpenAIServer;

beforeAll(async () => {
  anthropicServer = await startAnthropicServer({ respond: () => ({ text: 'Hello!' }) });
  openaiServer = await startOpenAIServer({ respond: () => 'Hello!' });
});
afterAll(async () => {
  await anthropicServer.close();
  await openaiServer.close();
});
beforeEach(() => {
  anthropicServer.requests.length = 0;
  openaiServer.requests.length = 0;
});

const calc = (id: string) => ({ id, name: 'calc', parameters: { expr: '2+2' } });

/** A summarized conversation ending with a tool turn's results and a new question. */
const conversation = () =>
  setSummary(
    addMessages(createMemory({ tokenizer: 'heuristic' }), [
      userMessage('What is 2+2 and 3+3?'),
      assistantMessage(null, [calc('toolu_1'), calc('toolu_2')]),
      toolMessage('4', { toolCallId: 'toolu_1', toolName: 'calc' }),
      toolMessage('6', { toolCallId: 'toolu_2', toolName: 'calc' }),
      assistantMessage('4 and 6.'),
      userMessage('And 5+5?'),
    ]).state,
    'The user is Ann.',
  ).state;

const viewOf = (cache: true | { ttl: '1h' }) =>
  modelView(conversation(), { target: 'anthropic', cache });

const plainTurns: Message[] = [
  userMessage('a'),
  assistantMessage('b'),
  userMessage('c'),
  assistantMessage('d'),
  userMessage('e'),
];

const anthropicModel = () =>
  createAnthropic({ baseURL: `${anthropicServer.url}/v1`, apiKey: 'test-key' })('claude-test');

const viaAiSdk = (): Provider => aiSdkProvider({ model: anthropicModel(), maxRetries: 0 });
const native = (): Provider =>
  anthropicProvider({
    client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'test-key', maxRetries: 0 }),
  });

const requestOf = (
  messages: readonly Message[],
  cache: CompletionCache | undefined,
  systemPrompt = 'Be brief.',
): CompletionRequest => ({
  model: 'claude-test',
  systemPrompt,
  messages,
  ...(cache === undefined ? {} : { cache }),
});

/** Sends one request with `provider` (streamed or not) and returns the marks the server saw. */
const marksOf = async (provider: Provider, request: CompletionRequest, streamed: boolean) => {
  if (streamed) {
    for await (const part of provider.stream?.(request) ?? []) void part;
  } else await provider.complete(request);
  return cacheBreakpointsOf(anthropicServer.requests.at(-1) as Record<string, unknown>);
};

describe('aiSdkProvider with an Anthropic model sends the breakpoints as cache_control', () => {
  const five = viewOf(true);
  const hour = viewOf({ ttl: '1h' });
  const cases: readonly [string, CompletionRequest, string[]][] = [
    [
      'the view’s breakpoints and the system prompt',
      requestOf(five.messages, five.cache),
      ['system.0', 'system.1', 'messages.3.content.0', 'messages.4.content.0'],
    ],
    [
      'the one-hour cache',
      requestOf(hour.messages, hour.cache),
      ['system.0', 'system.1', 'messages.3.content.0', 'messages.4.content.0'],
    ],
    [
      'no system prompt: the breakpoints only',
      requestOf(five.messages, five.cache, ''),
      ['system.0', 'messages.3.content.0', 'messages.4.content.0'],
    ],
    [
      'four breakpoints: the system prompt unmarked',
      requestOf(plainTurns, { ttl: '5m', breakpoints: [0, 1, 2, 4] }),
      [
        'messages.0.content.0',
        'messages.1.content.0',
        'messages.2.content.0',
        'messages.4.content.0',
      ],
    ],
    [
      'a breakpoint on the first of merged tool results',
      requestOf(five.messages, { ttl: '5m', breakpoints: [3] }),
      ['system.0', 'messages.2.content.0'],
    ],
    [
      'a breakpoint on the last of merged tool results',
      requestOf(five.messages, { ttl: '5m', breakpoints: [4] }),
      ['system.0', 'messages.2.content.1'],
    ],
  ];
  for (const streamed of [false, true]) {
    it.each(cases)(`%s (${streamed ? 'stream' : 'complete'})`, async (_name, request, paths) => {
      const sent = await marksOf(viaAiSdk(), request, streamed);
      expect(sent.map((mark) => mark.path)).toEqual(paths);
      const ttl = request.cache?.ttl === '1h' ? { ttl: '1h' } : {};
      for (const mark of sent) expect(mark.control).toEqual({ type: 'ephemeral', ...ttl });
      // The same blocks, with the same cache_control, as the Anthropic adapter marks.
      expect(await marksOf(native(), request, streamed)).toEqual(sent);
    });
  }

  it('sends no cache_control without request.cache (the request of before)', async () => {
    const view = modelView(conversation(), { target: 'anthropic' });
    await viaAiSdk().complete(requestOf(view.messages, undefined));
    const body = anthropicServer.requests.at(-1);
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body?.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: '[Conversation Summary] The user is Ann.' },
    ]);
  });
});

describe('aiSdkProvider with other models', () => {
  const openaiModel = (name?: string) =>
    createOpenAI({
      baseURL: openaiServer.url,
      apiKey: 'test-key',
      ...(name === undefined ? {} : { name }),
    }).chat('gpt-test');
  const messages = [userMessage('hi')];

  it('an OpenAI model: the cache key as prompt_cache_key, bounded as openaiProvider bounds it', async () => {
    const long = `tenant:${'thread-'.repeat(12)}`;
    const nativeOpenai = openaiProvider({
      client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'test-key', maxRetries: 0 }),
    });
    for (const key of ['thread-7', long]) {
      const request = requestOf(messages, { ttl: '5m', breakpoints: [0], key });
      await aiSdkProvider({ model: openaiModel(), maxRetries: 0 }).complete(request);
      const sent = openaiServer.requests.at(-1)?.['prompt_cache_key'];
      await nativeOpenai.complete(request);
      expect(sent).toBe(openaiServer.requests.at(-1)?.['prompt_cache_key']);
      expect(sent).toEqual(key.length <= 64 ? key : expect.stringMatching(/^.{64}$/));
    }
    // Streamed too.
    const request = requestOf(messages, { ttl: '5m', breakpoints: [0], key: 'thread-8' });
    for await (const part of aiSdkProvider({ model: openaiModel(), maxRetries: 0 }).stream?.(
      request,
    ) ?? [])
      void part;
    expect(openaiServer.requests.at(-1)).toMatchObject({
      stream: true,
      prompt_cache_key: 'thread-8',
    });
  });

  it('no key, no cache, or a provider other than OpenAI and Anthropic: no cache field sent', async () => {
    const sends: readonly [string | undefined, CompletionCache | undefined][] = [
      [undefined, { ttl: '5m', breakpoints: [0] }],
      [undefined, undefined],
      ['groq', { ttl: '5m', breakpoints: [0], key: 'thread-7' }],
    ];
    for (const [name, cache] of sends) {
      await aiSdkProvider({ model: openaiModel(name), maxRetries: 0 }).complete(
        requestOf(messages, cache),
      );
      const body = openaiServer.requests.at(-1);
      expect(body).not.toHaveProperty('prompt_cache_key');
      expect(JSON.stringify(body)).not.toMatch(/cache/);
    }
  });
});
