import { createOpenAI } from '@ai-sdk/openai';
import { APICallError } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConversationMemoryError } from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { validateTranscript } from 'conversation-memory';
import { assistant, call, tool, user } from '../helpers';
import {
  startOpenAIServer,
  type OpenAIServer,
  type ScriptedReply,
} from '../support/loopback/openaiServer';
import { rejection, request, toolTurn, weather } from '../support/providerRequests';

describe('aiSdkProvider with @ai-sdk/openai against the loopback Chat Completions server', () => {
  let server: OpenAIServer;
  let reply: ScriptedReply = 'Hello!';
  beforeAll(async () => {
    server = await startOpenAIServer({ respond: () => reply });
  });
  afterAll(() => server.close());
  const provider = () =>
    aiSdkProvider({
      model: createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-4o-mini'),
      maxRetries: 0,
    });

  it('maps a text reply and its usage; request.model is not used, the LanguageModel is', async () => {
    reply = {
      text: 'Hello!',
      usage: { promptTokens: 1300, completionTokens: 3, cachedTokens: 1152 },
    };
    const result = await provider().complete(request([user('Hi')], { maxTokens: 64 }));
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello!' },
      usage: { inputTokens: 1300, cachedInputTokens: 1152, outputTokens: 3 },
    });
    expect(provider().defaultModel).toBe('gpt-4o-mini');
    expect(provider().name).toBe('ai-sdk');
    const sent = server.requests.at(-1);
    expect(sent?.model).toBe('gpt-4o-mini');
    expect(sent?.['max_tokens']).toBe(64);
    expect(sent?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('maps a tool-call reply with its ids; the tools were sent as JSON Schema', async () => {
    reply = {
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
    };
    const result = await provider().complete(request(toolTurn, { tools: [weather] }));
    expect(result.message).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'call_a', name: 'get_weather', parameters: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', parameters: { city: 'Oslo' } },
      ],
    });
    const sent = server.requests.at(-1);
    expect(sent?.['tools']).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: weather.parameters,
        },
      },
    ]);
    expect(sent?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: '[Conversation Summary] The user likes Paris.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21°C' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
  });

  it("surfaces OpenAI's 400 text as the SDK's APICallError; validateTranscript quotes the same text", async () => {
    const orphan = [user('q'), tool('42', 'call_gone')];
    const error = await rejection(provider().complete(request(orphan)));
    const text =
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(400);
    expect((error as APICallError).message).toBe(text);
    expect(validateTranscript(orphan, 'openai')[0]?.message).toContain(text);
  });

  it('an unanswered call is refused by the AI SDK itself, before any request', async () => {
    const before = server.requests.length + server.rejected.length;
    const unanswered = [user('q'), assistant(null, call('c1')), user('again')];
    const error = await rejection(provider().complete(request(unanswered)));
    expect((error as Error).name).toBe('AI_MissingToolResultsError');
    expect(server.requests.length + server.rejected.length).toBe(before);
    expect(validateTranscript(unanswered, 'openai').map((v) => v.rule)).toEqual([
      'tool-call-without-result',
    ]);
  });

  it('a tool call whose arguments are not JSON is a ProviderResponseError naming the path', async () => {
    reply = { toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: '{oops' }] };
    const error = await rejection(provider().complete(request([user('q')], { tools: [weather] })));
    expect(isConversationMemoryError(error) && error.code).toBe('CM_PROVIDER_RESPONSE');
    expect((error as Error).message).toBe(
      '[conversation-memory] aiSdkProvider: toolCalls[0].input: expected a JSON object, received string "{oops"',
    );
  });

  it('passes the abort signal: an aborted call rejects and sends nothing', async () => {
    const before = server.requests.length;
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      provider().complete(request([user('q')], { signal: controller.signal })),
    );
    expect((error as Error).name).toBe('AbortError');
    expect(server.requests.length).toBe(before);
  });
});
