/**
 * The loopback Chat Completions server, driven by the real `openai` client: it answers like the
 * API (a `chat.completion` the client accepts) and refuses what the API refuses, with OpenAI's
 * own error texts, which the client surfaces as `BadRequestError`.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type OpenAIServer,
  type OpenAIServerOptions,
  startOpenAIServer,
} from './support/loopback/openaiServer';

let server: OpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (options?: OpenAIServerOptions): Promise<OpenAI> => {
  server = await startOpenAIServer(options);
  return new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
};

/** The error a call rejects with (fails the test when it resolves). */
const rejection = async (
  promise: Promise<unknown>,
): Promise<InstanceType<typeof OpenAI.APIError>> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAI.APIError);
    return error as InstanceType<typeof OpenAI.APIError>;
  }
  throw new Error('expected the call to reject');
};

const call = (id: string, name = 'calc', args = '{}') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

const send = (client: OpenAI, messages: unknown[], extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({
    model: 'gpt-test',
    messages: messages as ChatCompletionMessageParam[],
    ...extra,
  });

describe('loopback OpenAI server: replies', () => {
  it('answers a plain request with a deterministic chat.completion', async () => {
    const client = await start();
    const completion = await send(client, [{ role: 'user', content: 'hello' }]);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-test');
    expect(completion.choices[0]?.message).toMatchObject({
      role: 'assistant',
      content: 'Echo: hello',
      refusal: null,
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    expect(server?.requests).toHaveLength(1);
  });

  it('answers scripted tool calls with ids, arguments as JSON text, and finish_reason tool_calls', async () => {
    const client = await start({
      respond: ({ index }) => ({
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'noop' },
        ],
        usage: { promptTokens: 11, completionTokens: 7 },
        ...(index > 0 ? { text: 'again' } : {}),
      }),
    });
    const completion = await send(client, [{ role: 'user', content: 'weather?' }]);
    expect(completion.choices[0]?.message.content).toBeNull();
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      call('call_a', 'get_weather', '{"city":"Paris"}'),
      call('call_0_1', 'noop'),
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 7,
      total_tokens: 18,
    });
  });

  it('answers with a raw body and status when the script asks for one', async () => {
    const client = await start({ respond: () => ({ raw: { choices: 'nope' } }) });
    const completion: unknown = await send(client, [{ role: 'user', content: 'hi' }]);
    expect(completion).toEqual({ choices: 'nope' });
    await server?.close();
    const teapot = await start({
      respond: () => ({ raw: 'busy', status: 503, contentType: 'text/plain' }),
    });
    const error = await rejection(send(teapot, [{ role: 'user', content: 'hi' }]));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.status).toBe(503);
  });

  it('refuses streaming', async () => {
    const client = await start();
    const error = await rejection(
      send(client, [{ role: 'user', content: 'hi' }], { stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toMatch(/^400 Streaming is not supported by this test server/);
  });

  it("answers 404 with OpenAI's text for any other route", async () => {
    const client = await start();
    const error = await rejection(client.models.list());
    expect(error.status).toBe(404);
    expect(error.message).toBe('404 Invalid URL (GET /v1/models)');
  });
});

/** Each broken rule, the message the client shows, and OpenAI's param and code. */
const broken: readonly (readonly [string, unknown[], string, string | null, string | null])[] = [
  [
    'a tool message with no assistant tool_calls before it',
    [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
    ],
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    'messages.[1].role',
    null,
  ],
  [
    'a tool message after the turn ended',
    [
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
      { role: 'user', content: 'and?' },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
    ],
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    'messages.[3].role',
    null,
  ],
  [
    'a tool message answering another call',
    [
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c9', content: '4' },
    ],
    "Invalid parameter: 'tool_call_id' of 'c9' not found in 'tool_calls' of previous message.",
    'messages.[1].tool_call_id',
    null,
  ],
  [
    'calls left unanswered before the next message',
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2'), call('c3')] },
      { role: 'tool', tool_call_id: 'c2', content: '4' },
      { role: 'user', content: 'hello?' },
    ],
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: c1, c3",
    'messages.[1].role',
    null,
  ],
  [
    'a conversation ending on unanswered calls',
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
    ],
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: c1",
    'messages.[1].role',
    null,
  ],
  [
    'null content on an assistant message without tool_calls',
    [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null },
      { role: 'user', content: 'x' },
    ],
    "Invalid value for 'content': expected a string, got null.",
    'messages.[1].content',
    null,
  ],
  [
    'an assistant message with neither content nor tool_calls',
    [{ role: 'user', content: 'hi' }, { role: 'assistant' }],
    "Missing required parameter: 'messages[1].content'.",
    'messages[1].content',
    'missing_required_parameter',
  ],
  [
    'null content on a user message',
    [{ role: 'user', content: null }],
    "Invalid value for 'content': expected a string, got null.",
    'messages.[0].content',
    null,
  ],
  [
    'an unknown role',
    [{ role: 'USER', content: 'hi' }],
    "Invalid value: 'USER'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
    'messages[0].role',
    'invalid_value',
  ],
  [
    'a message without a role',
    [{ content: 'hi' }],
    "Missing required parameter: 'messages[0].role'.",
    'messages[0].role',
    'missing_required_parameter',
  ],
  [
    'a tool message without tool_call_id',
    [
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      { role: 'tool', content: '4' },
    ],
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
    'messages.[1].tool_call_id',
    null,
  ],
  [
    'a tool call without an id',
    [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ],
    "Missing required parameter: 'messages[0].tool_calls[0].id'.",
    'messages[0].tool_calls[0].id',
    'missing_required_parameter',
  ],
  [
    'a field OpenAI does not know on a message',
    [{ role: 'user', content: 'hi', toolName: 'calc' }],
    "Unknown parameter: 'messages[0].toolName'.",
    'messages[0].toolName',
    'unknown_parameter',
  ],
  [
    'an image part on a system message',
    [
      {
        role: 'system',
        content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }],
      },
    ],
    "Invalid value: 'image_url'. Supported values are: 'text'.",
    'messages[0].content[0].type',
    'invalid_value',
  ],
  [
    'an image data URL that is not an image',
    [
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:text/plain;base64,aGk=' } }],
      },
    ],
    "Invalid 'messages[0].content[0].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value with an invalid format.",
    'messages[0].content[0].image_url.url',
    'invalid_value',
  ],
  [
    'an empty list of messages',
    [],
    "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    'messages',
    'empty_array',
  ],
];

describe("loopback OpenAI server: the API's rules, with its own error texts", () => {
  it.each(broken)('refuses %s', async (_, messages, message, param, code) => {
    const client = await start();
    const error = await rejection(send(client, messages));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(`400 ${message}`);
    expect(error.error).toEqual({ message, type: 'invalid_request_error', param, code });
    expect(server?.requests).toEqual([]);
    expect(server?.rejected).toHaveLength(1);
  });

  it('accepts a complete multi-call tool turn, answered in any order', async () => {
    const client = await start();
    const completion = await send(client, [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c2', content: '2' },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '1' }] },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(completion.choices[0]?.message.content).toBe('Echo: thanks');
  });

  it("refuses a missing model with OpenAI's text", async () => {
    const client = await start();
    const error = await rejection(
      client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.message).toBe('400 you must provide a model parameter');
    expect(error.error).toEqual({
      message: 'you must provide a model parameter',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  });

  it('refuses an empty tools list, a bad tool name and max tokens below 1', async () => {
    const client = await start();
    const user = [{ role: 'user', content: 'hi' }];
    const empty = await rejection(send(client, user, { tools: [] }));
    expect(empty.message).toBe(
      "400 Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    );
    const badName = await rejection(
      send(client, user, { tools: [{ type: 'function', function: { name: 'get weather' } }] }),
    );
    expect(badName.message).toBe(
      "400 Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    );
    const zero = await rejection(send(client, user, { max_completion_tokens: 0 }));
    expect(zero.message).toBe(
      "400 Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    );
  });

  it("refuses a body that is not JSON with OpenAI's parse error", async () => {
    await start();
    const response = await fetch(`${server?.url ?? ''}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^We could not parse the JSON body of your request\./);
  });
});
