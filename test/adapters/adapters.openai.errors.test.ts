/**
 * `openaiProvider` when things go wrong: the API's 400s (from the loopback server, which enforces
 * OpenAI's rules with its texts) pass through unchanged; replies that are not usable completions
 * reject with `ProviderResponseError` naming the path and the value.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, type Message } from 'conversation-memory';
import { ProviderResponseError } from 'conversation-memory';
import { assistant, call, tool, user } from '../helpers';
import { rejection, request, useOpenAIServer } from '../support/openaiHarness';

const start = useOpenAIServer();

/** Transcripts that break OpenAI's rules, and the text the API answers with. */
const broken: readonly (readonly [string, Message[], string])[] = [
  [
    'a tool result whose call is not before it',
    [user('hi'), tool('4', 'c1')],
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  ],
  [
    'a tool result answering another call',
    [user('hi'), assistant(null, call('c1')), tool('4', 'c2')],
    "Invalid parameter: 'tool_call_id' of 'c2' not found in 'tool_calls' of previous message.",
  ],
  [
    'tool calls without results before the next message',
    [user('hi'), assistant(null, call('c1'), call('c2')), tool('4', 'c1'), user('well?')],
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: c2",
  ],
  [
    'a tool call without an id',
    [
      user('hi'),
      { role: 'assistant', content: null, toolCalls: [{ name: 'calc', parameters: {} }] },
    ],
    "Missing required parameter: 'messages[1].tool_calls[0].id'.",
  ],
  [
    'a tool result without a call id',
    [user('hi'), assistant(null, call('c1')), { role: 'tool', content: '4' }],
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
  ],
];

describe("openaiProvider: the API's 400s pass through unchanged", () => {
  it.each(broken)('%s', async (_, messages, text) => {
    const { provider } = await start();
    const error = await rejection(provider.complete(request(messages)));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toBe(`400 ${text}`);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      message: text,
      type: 'invalid_request_error',
    });
  });

  it('passes an abort through as the client reports it', async () => {
    const { provider } = await start();
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      provider.complete(request([user('hi')], { signal: controller.signal })),
    );
    expect(error).toBeInstanceOf(OpenAI.APIUserAbortError);
  });
});

const hostile: readonly (readonly [string, unknown, string, string?])[] = [
  [
    'no choices',
    { id: 'x', object: 'chat.completion' },
    'choices: expected non-empty list of choices, got undefined',
  ],
  [
    'an empty list of choices',
    { choices: [] },
    'choices: expected at least one choice, got an empty list',
  ],
  [
    'arguments that are not JSON',
    {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '{oops' } },
            ],
          },
        },
      ],
    },
    'choices[0].message.tool_calls[0].function.arguments: expected a JSON object string, got "{oops"',
  ],
  [
    'content of the wrong type',
    { choices: [{ message: { role: 'assistant', content: 42 } }] },
    'choices[0].message.content: expected string, list of content parts or null, got 42',
  ],
  [
    'a message that is not the assistant',
    { choices: [{ message: { role: 'user', content: 'hi' } }] },
    'choices[0].message.role: expected "assistant", got "user"',
  ],
  [
    'usage of the wrong type',
    {
      choices: [{ message: { role: 'assistant', content: 'hi' } }],
      usage: { prompt_tokens: '12', completion_tokens: 1 },
    },
    'usage.prompt_tokens: expected an integer from 0 to 2^53 − 1, got "12"',
  ],
  [
    'a body that is not JSON',
    'Service temporarily unavailable',
    '(root): expected chat.completion object, got "Service temporarily unavailable"',
    'text/plain',
  ],
];

describe('openaiProvider: replies that are not usable completions', () => {
  it.each(hostile)(
    'rejects %s with ProviderResponseError naming the path and value',
    async (_, raw, problem, contentType) => {
      const { provider } = await start({
        respond: () => (typeof contentType === 'string' ? { raw, contentType } : { raw }),
      });
      const error = await rejection(provider.complete(request([user('hi')])));
      expect(error).toBeInstanceOf(ProviderResponseError);
      expect(isConversationMemoryError(error) && error.code).toBe('CM_PROVIDER_RESPONSE');
      expect((error as Error).message).toBe(
        `[conversation-memory] openaiProvider.complete: the openai reply is not a usable chat.completion: ${problem}`,
      );
    },
  );
});

describe('openaiProvider: a JSON reply that does not parse', () => {
  it("rejects with ProviderResponseError rather than the parser's SyntaxError", async () => {
    const { provider } = await start({ respond: () => ({ raw: '{"choices": [' }) });
    const error = await rejection(provider.complete(request([user('hi')])));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toMatch(
      /openaiProvider\.complete: the openai reply is not valid JSON \(the client could not parse its body; see cause\)$/,
    );
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });
});
