/**
 * Cache breakpoints end to end with the real `@anthropic-ai/sdk` client against the loopback
 * Anthropic server (issue #29 §2): the request the server receives has `cache_control` on the
 * blocks the view marked (and on the system prompt), from `complete`, `stream` and the agent's
 * calls (`config.cache`); without `cache` the request is the one of before; the server refuses
 * a fifth breakpoint and a wrong `cache_control`, as the API does.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addMessages,
  assistantMessage,
  ConversationMemory,
  createAgent,
  createMemory,
  modelView,
  setSummary,
  toAnthropic,
  toolMessage,
  userMessage,
  type AgentTool,
  type CompletionRequest,
  type Message,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { cacheBreakpointsOf } from '../support/loopback/anthropicCache';
import {
  startAnthropicServer,
  type AnthropicServer,
  type MessagesRequestBody,
  type ScriptedReply,
} from '../support/loopback/anthropicServer';

let server: AnthropicServer;
let client: Anthropic;
/** The server's next replies (each test scripts them); then it echoes. */
let replies: ScriptedReply[] = [];

beforeAll(async () => {
  server = await startAnthropicServer({ respond: () => replies.shift() ?? { text: 'Hello!' } });
  client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  replies = [];
  server.requests.length = 0;
});

const EPHEMERAL = { type: 'ephemeral' };
const HOUR = { type: 'ephemeral', ttl: '1h' };

/** The paths of the blocks a request marked. */
const marks = (body: MessagesRequestBody | undefined): string[] =>
  cacheBreakpointsOf(body as Record<string, unknown>).map((mark) => mark.path);

const calc = (id: string) => ({ id, name: 'calc', parameters: { expr: '2+2' } });

/** A summarized conversation: a summary, a finished tool turn, and a new question. */
const conversation = (): ReturnType<typeof createMemory> => {
  const state = addMessages(createMemory({ tokenizer: 'heuristic' }), [
    userMessage('What is 2+2?'),
    assistantMessage(null, [calc('toolu_1')]),
    toolMessage('4', { toolCallId: 'toolu_1', toolName: 'calc' }),
    assistantMessage('It is 4.'),
    userMessage('And 3+3?'),
  ]).state;
  return setSummary(state, 'The user is Ann.').state;
};

const requestOf = (messages: readonly Message[], extra: Partial<CompletionRequest> = {}) => ({
  model: 'claude-test',
  systemPrompt: 'Be brief.',
  messages,
  ...extra,
});

describe('anthropicProvider sends the view’s cache breakpoints', () => {
  it('marks the system prompt, the summary, the stable part and the newest turn', async () => {
    const view = modelView(conversation(), { target: 'anthropic', cache: true });
    expect(view.cache).toEqual({ ttl: '5m', breakpoints: [0, 4, 5] });
    const provider = anthropicProvider({ client });
    const result = await provider.complete(requestOf(view.messages, { cache: view.cache }));
    expect(result.message.content).toBe('Hello!');
    const body = server.requests.at(-1);
    expect(body?.system).toEqual([
      { type: 'text', text: 'Be brief.', cache_control: EPHEMERAL },
      { type: 'text', text: '[Conversation Summary] The user is Ann.', cache_control: EPHEMERAL },
    ]);
    // With cache every content is sent as blocks, marked or not (so a prefix reads the same).
    expect(body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: { expr: '2+2' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'It is 4.', cache_control: EPHEMERAL }],
      },
      {
        role: 'user',
        content: [{ type: 'text', text: 'And 3+3?', cache_control: EPHEMERAL }],
      },
    ]);
    expect(marks(body)).toEqual([
      'system.0',
      'system.1',
      'messages.3.content.0',
      'messages.4.content.0',
    ]);
  });

  it('sends the one-hour cache on every breakpoint with ttl "1h"', async () => {
    const view = modelView(conversation(), { target: 'anthropic', cache: { ttl: '1h' } });
    await anthropicProvider({ client }).complete(requestOf(view.messages, { cache: view.cache }));
    const found = cacheBreakpointsOf(server.requests.at(-1) as Record<string, unknown>);
    expect(found).toHaveLength(4);
    for (const mark of found) expect(mark.control).toEqual(HOUR);
  });

  it('sends the same breakpoints when streaming', async () => {
    const view = modelView(conversation(), { target: 'anthropic', cache: true });
    const provider = anthropicProvider({ client });
    const parts = [];
    for await (const part of provider.stream?.(requestOf(view.messages, { cache: view.cache })) ??
      []) {
      parts.push(part.type);
    }
    expect(parts.at(-1)).toBe('finish');
    const body = server.requests.at(-1);
    expect(body?.stream).toBe(true);
    expect(marks(body)).toEqual([
      'system.0',
      'system.1',
      'messages.3.content.0',
      'messages.4.content.0',
    ]);
  });

  it('is the request of before without cache: a system string, no cache_control', async () => {
    const view = modelView(conversation(), { target: 'anthropic' });
    await anthropicProvider({ client }).complete(requestOf(view.messages));
    expect(server.requests.at(-1)).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      system: 'Be brief.\n\n[Conversation Summary] The user is Ann.',
      messages: toAnthropic(view.messages).messages,
    });
    expect(JSON.stringify(server.requests.at(-1))).not.toContain('cache_control');
  });

  it('leaves the system prompt unmarked when the request already has four breakpoints', async () => {
    const messages = [
      userMessage('a'),
      assistantMessage('b'),
      userMessage('c'),
      assistantMessage('d'),
      userMessage('e'),
    ];
    await anthropicProvider({ client }).complete(
      requestOf(messages, { cache: { ttl: '5m', breakpoints: [0, 1, 2, 4] } }),
    );
    const body = server.requests.at(-1);
    expect(body?.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(marks(body)).toEqual([
      'messages.0.content.0',
      'messages.1.content.0',
      'messages.2.content.0',
      'messages.4.content.0',
    ]);
  });
});

describe('the loopback server checks cache_control as the API does', () => {
  const text = (value: string, cached = true) => ({
    type: 'text' as const,
    text: value,
    ...(cached ? { cache_control: { type: 'ephemeral' as const } } : {}),
  });
  const create = (params: Record<string, unknown>) =>
    client.messages.create({ model: 'claude-test', max_tokens: 16, ...params } as never);

  it('refuses a fifth breakpoint (tools count too)', async () => {
    const five = create({
      system: [text('s1'), text('s2')],
      messages: [
        { role: 'user', content: [text('a')] },
        { role: 'assistant', content: [text('b')] },
        { role: 'user', content: [text('c')] },
      ],
    });
    await expect(five).rejects.toMatchObject({
      status: 400,
      error: {
        error: {
          type: 'invalid_request_error',
          message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
        },
      },
    });
    const withTool = create({
      tools: [
        {
          name: 'calc',
          input_schema: { type: 'object' },
          cache_control: { type: 'ephemeral' },
        },
      ],
      system: [text('s1')],
      messages: [
        { role: 'user', content: [text('a')] },
        { role: 'assistant', content: [text('b')] },
        { role: 'user', content: [text('c')] },
      ],
    });
    await expect(withTool).rejects.toMatchObject({ status: 400 });
    // Four are fine.
    const four = await create({
      system: [text('s1')],
      messages: [
        { role: 'user', content: [text('a')] },
        { role: 'assistant', content: [text('b')] },
        { role: 'user', content: [text('c')] },
      ],
    });
    expect(four.type).toBe('message');
  });

  it('refuses a cache_control that is not { type: "ephemeral", ttl? }', async () => {
    const cases: readonly [unknown, string][] = [
      [
        { type: 'persistent' },
        "messages.0.content.0.cache_control.type: Input should be 'ephemeral'",
      ],
      [
        { type: 'ephemeral', ttl: '10m' },
        "messages.0.content.0.cache_control.ttl: Input should be '5m' or '1h'",
      ],
      [
        { type: 'ephemeral', scope: 'org' },
        'messages.0.content.0.cache_control.scope: Extra inputs are not permitted',
      ],
      ['ephemeral', 'messages.0.content.0.cache_control: Input should be a valid dictionary'],
    ];
    for (const [control, message] of cases) {
      await expect(
        create({
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'a', cache_control: control }] },
          ],
        }),
      ).rejects.toMatchObject({ status: 400, error: { error: { message } } });
    }
  });
});

describe('the agent with config.cache', () => {
  const calcTool: AgentTool = {
    name: 'calc',
    description: 'Adds',
    parameters: { type: 'object', properties: { expr: { type: 'string' } } },
    execute: () => '4',
  };

  const agentWith = (memory: ConversationMemory, cache: true | { ttl: '1h' } = true) =>
    createAgent({
      provider: anthropicProvider({ client, defaultModel: 'claude-test' }),
      tools: [calcTool],
      memory,
      config: { systemPrompt: 'Be brief.', cache },
    });

  it('marks every main call of a tool loop: the system prompt, the stable part, the newest turn', async () => {
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const agent = agentWith(memory);
    replies = [{ text: 'Hi Ann.' }];
    await agent.run('I am Ann.');
    replies = [
      { toolUses: [{ id: 'toolu_9', name: 'calc', input: { expr: '2+2' } }] },
      { text: 'It is 4.' },
    ];
    server.requests.length = 0;
    const { message } = await agent.run('What is 2+2?');
    expect(message.content).toBe('It is 4.');
    expect(server.requests.map(marks)).toEqual([
      // [user, assistant, user]: the previous answer ends the stable part.
      ['system.0', 'messages.1.content.0', 'messages.2.content.0'],
      // [user, assistant, user, tool_use, tool_result]: the newest turn now ends at the result.
      ['system.0', 'messages.1.content.0', 'messages.4.content.0'],
    ]);
    // The tools are never marked: they come first, every breakpoint caches them.
    expect(server.requests.every((body) => body.tools?.length === 1)).toBe(true);
  });

  it('marks the streamed calls too, with the one-hour cache', async () => {
    const agent = agentWith(new ConversationMemory({ tokenizer: 'heuristic' }), { ttl: '1h' });
    replies = [{ text: 'Hello there.' }];
    const events = [];
    for await (const event of agent.stream('Hi')) events.push(event.type);
    expect(events).toContain('text-delta');
    const body = server.requests.at(-1);
    expect(body?.stream).toBe(true);
    expect(cacheBreakpointsOf(body as Record<string, unknown>)).toEqual([
      { path: 'system.0', control: HOUR },
      { path: 'messages.0.content.0', control: HOUR },
    ]);
  });

  it('sends the requests of before without config.cache', async () => {
    const agent = createAgent({
      provider: anthropicProvider({ client, defaultModel: 'claude-test' }),
      memory: new ConversationMemory({ tokenizer: 'heuristic' }),
      config: { systemPrompt: 'Be brief.' },
    });
    await agent.run('Hi');
    expect(server.requests.at(-1)).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });
});
