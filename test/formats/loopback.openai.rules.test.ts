/**
 * The loopback Chat Completions server refuses what the API refuses, with OpenAI's own error
 * texts (param and code included), which the real `openai` client surfaces as `BadRequestError`.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { rejection, send, useOpenAIServer, wireCall as call } from '../support/openaiHarness';

const start = useOpenAIServer();

/** The API error a call rejects with. */
const apiError = async (promise: Promise<unknown>) => {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
};

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
    const { client, server } = await start();
    const error = await apiError(send(client, messages));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(`400 ${message}`);
    expect(error.error).toEqual({ message, type: 'invalid_request_error', param, code });
    expect(server.requests).toEqual([]);
    expect(server.rejected).toHaveLength(1);
  });

  it('accepts a complete multi-call tool turn, answered in any order', async () => {
    const { client, server } = await start();
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
    expect(server.rejected).toEqual([]);
  });

  it("refuses a missing model with OpenAI's text", async () => {
    const { client, server } = await start();
    const error = await apiError(
      client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.message).toBe('400 you must provide a model parameter');
    expect(error.error).toEqual({
      message: 'you must provide a model parameter',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
    expect(server.rejected[0]?.body).toMatchObject({ model: '' });
  });

  it('refuses an empty tools list, a bad tool name and max tokens below 1', async () => {
    const { client, server } = await start();
    const user = [{ role: 'user', content: 'hi' }];
    const empty = await apiError(send(client, user, { tools: [] }));
    expect(empty.message).toBe(
      "400 Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    );
    const badName = await apiError(
      send(client, user, { tools: [{ type: 'function', function: { name: 'get weather' } }] }),
    );
    expect(badName.message).toBe(
      "400 Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    );
    const zero = await apiError(send(client, user, { max_completion_tokens: 0 }));
    expect(zero.message).toBe(
      "400 Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    );
    expect(server.rejected).toHaveLength(3);
  });

  it("refuses a body that is not JSON with OpenAI's parse error", async () => {
    const { server } = await start();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^We could not parse the JSON body of your request\./);
  });
});
