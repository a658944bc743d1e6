import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { validateTranscript } from 'conversation-memory';
import { assistant, tool, user } from '../helpers';
import {
  startAnthropicServer,
  type AnthropicServer,
  type ScriptedReply,
} from '../support/loopback/anthropicServer';
import { rejection, request, toolTurn, weather } from '../support/providerRequests';

describe('aiSdkProvider with @ai-sdk/anthropic against the loopback Messages server', () => {
  let server: AnthropicServer;
  let reply: ScriptedReply = { text: 'Hello!' };
  beforeAll(async () => {
    server = await startAnthropicServer({ respond: () => reply });
  });
  afterAll(() => server.close());
  const provider = () =>
    aiSdkProvider({
      model: createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })(
        'claude-sonnet-4-5',
      ),
      defaultModelName: 'claude-sonnet-4-5 (via AI SDK)',
      name: 'anthropic-ai-sdk',
      maxRetries: 0,
    });

  it('maps a text reply and its usage', async () => {
    reply = {
      text: 'Hello!',
      usage: {
        input_tokens: 9,
        output_tokens: 2,
        cache_read_input_tokens: 1024,
        cache_creation_input_tokens: 200,
      },
    };
    const result = await provider().complete(request([user('Hi')], { maxTokens: 32 }));
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello!' },
      // Anthropic's input_tokens leaves the cached tokens out; inputTokens counts them all.
      usage: { inputTokens: 1233, cachedInputTokens: 1024, cacheWriteTokens: 200, outputTokens: 2 },
    });
    expect(provider().defaultModel).toBe('claude-sonnet-4-5 (via AI SDK)');
    expect(provider().name).toBe('anthropic-ai-sdk');
    const sent = server.requests.at(-1);
    expect(sent?.model).toBe('claude-sonnet-4-5');
    expect(sent?.max_tokens).toBe(32);
  });

  it('maps text with tool uses; system lifted, tool turn and tools sent as Anthropic expects', async () => {
    reply = {
      text: 'Checking.',
      toolUses: [{ id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }],
    };
    const result = await provider().complete(request(toolTurn, { tools: [weather] }));
    expect(result.message).toEqual({
      role: 'assistant',
      content: 'Checking.',
      toolCalls: [{ id: 'toolu_01', name: 'get_weather', parameters: { city: 'Paris' } }],
    });
    const sent = server.requests.at(-1);
    expect(sent?.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: '[Conversation Summary] The user likes Paris.' },
    ]);
    expect(sent?.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        input_schema: weather.parameters,
      },
    ]);
    expect(sent?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'Sunny, 21°C' },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
  });

  it.each([
    {
      rule: 'first-message-not-user',
      messages: [assistant('Hello'), user('hi')],
      text: 'messages: first message must use the "user" role',
    },
    {
      rule: 'tool-result-without-call',
      messages: [user('q'), tool('42', 'call_gone')],
      text: 'unexpected `tool_use_id` found in `tool_result` blocks: call_gone. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    },
  ])(
    "surfaces Anthropic's 400 text for $rule; validateTranscript quotes it",
    async ({ rule, messages, text }) => {
      const error = await rejection(provider().complete(request(messages)));
      expect(APICallError.isInstance(error)).toBe(true);
      expect((error as APICallError).statusCode).toBe(400);
      expect((error as APICallError).message).toContain(text);
      const [violation] = validateTranscript(messages, 'anthropic');
      expect(violation?.rule).toBe(rule);
      expect(violation?.message).toContain(text);
    },
  );
});
