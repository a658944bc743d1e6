/**
 * `openaiProvider` with the real `openai` client against the loopback Chat Completions server:
 * what it sends, what it returns, and its options.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiProvider } from 'conversation-memory/openai';
import { AgentConfigError } from 'conversation-memory';
import { assistant, user } from '../helpers';
import { rejection, request, useOpenAIServer, weatherTool } from '../support/openaiHarness';

const start = useOpenAIServer();

describe('openaiProvider: requests and replies', () => {
  it('returns a text reply with its usage', async () => {
    const { provider } = await start({
      respond: () => ({
        text: 'Hello!',
        usage: { promptTokens: 1300, completionTokens: 3, cachedTokens: 1152 },
      }),
    });
    expect(provider.name).toBe('openai');
    expect(provider.defaultModel).toBe('gpt-default');
    await expect(provider.complete(request([user('hi')]))).resolves.toEqual({
      message: { role: 'assistant', content: 'Hello!' },
      // prompt_tokens includes the cached tokens: inputTokens is it as it is.
      usage: { inputTokens: 1300, cachedInputTokens: 1152, outputTokens: 3 },
    });
  });

  it('sends the system prompt first, the tools as functions, and max_completion_tokens', async () => {
    const { provider, server } = await start();
    await provider.complete(
      request([user('Weather in Paris?')], {
        systemPrompt: 'Be brief.',
        maxTokens: 256,
        tools: [weatherTool],
      }),
    );
    expect(server.requests).toEqual([
      {
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        max_completion_tokens: 256,
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Current weather for a city',
              parameters: weatherTool.parameters,
            },
          },
        ],
      },
    ]);
  });

  it('sends no system message for an empty prompt, no tools key for no tools, and the default model for an empty one', async () => {
    const { provider, server } = await start();
    await provider.complete(request([user('a')], { tools: [] }));
    await provider.complete(request([user('b')], { model: '' }));
    expect(server.requests).toEqual([
      { model: 'gpt-test', messages: [{ role: 'user', content: 'a' }] },
      { model: 'gpt-default', messages: [{ role: 'user', content: 'b' }] },
    ]);
  });

  it('returns tool calls with their ids and parsed arguments, and sends the tool turn back as the API accepts it', async () => {
    const { provider, server } = await start({
      respond: ({ index }) =>
        index === 0
          ? { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] }
          : 'It is 18°C in Paris.',
    });
    const first = await provider.complete(
      request([user('Weather in Paris?')], { tools: [weatherTool] }),
    );
    expect(first.message).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_w1', name: 'get_weather', parameters: { city: 'Paris' } }],
    });
    const turn = [
      user('Weather in Paris?'),
      first.message,
      { role: 'tool', content: '18°C', toolCallId: 'call_w1', toolName: 'get_weather' } as const,
    ];
    const second = await provider.complete(request(turn, { tools: [weatherTool] }));
    expect(second.message).toEqual({ role: 'assistant', content: 'It is 18°C in Paris.' });
    expect(server.requests[1]?.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_w1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: '18°C' },
    ]);
  });

  it("returns a refusal's text as the content, and no usage when the reply has none", async () => {
    const { provider } = await start({
      respond: () => ({
        raw: {
          choices: [
            { message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } },
          ],
        },
      }),
    });
    await expect(provider.complete(request([user('hi')]))).resolves.toEqual({
      message: { role: 'assistant', content: 'I cannot help with that.' },
    });
  });

  it('sends an assistant message with null content and no calls as an empty string, which the API accepts', async () => {
    const { provider, server } = await start();
    await provider.complete(request([user('hi'), assistant(null), user('again')]));
    expect(server.requests[0]?.messages[1]).toEqual({ role: 'assistant', content: '' });
  });
});

describe('openaiProvider: options', () => {
  it('refuses a client that is not an openai client, and an empty model with no default', async () => {
    expect(() => openaiProvider({ client: {} as OpenAI })).toThrow(AgentConfigError);
    expect(() => openaiProvider({ client: {} as OpenAI })).toThrow(
      'options.client must be an openai client (new OpenAI({ apiKey })), received an object',
    );
    const client = new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', maxRetries: 0 });
    expect(() => openaiProvider({ client, defaultModel: '' })).toThrow(
      'options.defaultModel must be a non-empty string',
    );
    const provider = openaiProvider({ client, name: 'azure' });
    expect(provider).toEqual({
      name: 'azure',
      target: 'openai',
      complete: expect.any(Function),
      stream: expect.any(Function),
    });
    const error = await rejection(provider.complete(request([user('hi')], { model: '' })));
    expect(error).toBeInstanceOf(AgentConfigError);
    expect((error as Error).message).toMatch(
      /request.model is empty and the provider has no defaultModel/,
    );
  });
});
