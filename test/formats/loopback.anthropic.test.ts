import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../support/loopback/anthropicServer';

type Params = Anthropic.MessageCreateParamsNonStreaming;

let server: AnthropicServer;
let client: Anthropic;

beforeAll(async () => {
  server = await startAnthropicServer({
    respond: (request) => {
      const last = request.messages.at(-1);
      const text = typeof last?.content === 'string' ? last.content : '';
      if (text === 'use a tool') {
        return { text: 'Let me check.', toolUses: [{ name: 'calc', input: { expr: '2+2' } }] };
      }
      if (text === 'raw') return { status: 200, body: { hello: 'world' } };
      return { text: `echo ${text}`, usage: { input_tokens: 7, output_tokens: 3 } };
    },
  });
  client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => server.close());

const base = { model: 'claude-test', max_tokens: 64 } as const;

/** Sends `params` and returns the API error's message text (the request must fail with 400). */
const rejection = async (params: unknown): Promise<string> => {
  const error: unknown = await client.messages.create(params as Params).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  const apiError = error as InstanceType<typeof Anthropic.BadRequestError>;
  expect(apiError.status).toBe(400);
  const body = apiError.error as { type: string; error: { type: string; message: string } };
  expect(body.type).toBe('error');
  expect(body.error.type).toBe('invalid_request_error');
  // The SDK's own message: the status and the API's error JSON.
  expect(apiError.message).toBe(`400 ${JSON.stringify(body)}`);
  return body.error.message;
};

const toolTurn = [
  { role: 'user', content: 'what is 2+2?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_a', name: 'calc', input: { expr: '2+2' } },
      { type: 'tool_use', id: 'toolu_b', name: 'calc', input: { expr: '3+3' } },
    ],
  },
] as const;

describe('the loopback Anthropic server, through the real SDK', () => {
  it('answers a valid request with a Message object and records the request', async () => {
    const before = server.requests.length;
    const message = await client.messages.create({
      ...base,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'echo hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    expect(message.id).toMatch(/^msg_/);
    expect(server.requests.slice(before)).toEqual([
      { ...base, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] },
    ]);
  });

  it('returns scripted tool_use blocks with toolu_ ids and stop_reason tool_use', async () => {
    const message = await client.messages.create({
      ...base,
      messages: [{ role: 'user', content: 'use a tool' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_/),
        name: 'calc',
        input: { expr: '2+2' },
      },
    ]);
  });

  it('gives a deterministic default reply without respond', async () => {
    const plain = await startAnthropicServer();
    try {
      const other = new Anthropic({ baseURL: plain.url, apiKey: 'k', maxRetries: 0 });
      const message = await other.messages.create({
        ...base,
        messages: [{ role: 'user', content: 'ping' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'Loopback reply to: ping' }]);
    } finally {
      await plain.close();
    }
  });

  it('sends a raw reply as it is', async () => {
    const reply = await client.messages.create({
      ...base,
      messages: [{ role: 'user', content: 'raw' }],
    });
    expect(reply).toEqual({ hello: 'world' });
  });

  it('accepts tool results answering every tool_use, first in the next turn, with text after', async () => {
    const message = await client.messages.create({
      ...base,
      messages: [
        ...toolTurn,
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: '4' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: '6' }] },
            { type: 'text', text: 'and now?' },
          ],
        },
      ],
    } as Params);
    expect(message.type).toBe('message');
  });

  it('merges consecutive same-role messages, as the API does', async () => {
    await expect(
      client.messages.create({
        ...base,
        messages: [
          ...toolTurn,
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: '4' }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_b', content: '6' }],
          },
          { role: 'user', content: 'thanks' },
          { role: 'user', content: 'and more' },
        ],
      } as Params),
    ).resolves.toMatchObject({ type: 'message' });
  });

  it('accepts an empty final assistant message (a prefill)', async () => {
    await expect(
      client.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '' },
        ],
      }),
    ).resolves.toMatchObject({ type: 'message' });
  });
});

describe('the loopback server rejects what the API rejects, with its own text', () => {
  it('requires the user role first', async () => {
    expect(await rejection({ ...base, messages: [{ role: 'assistant', content: 'hello' }] })).toBe(
      'messages: first message must use the "user" role',
    );
  });

  it('refuses a system role inside messages', async () => {
    expect(
      await rejection({
        ...base,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
      }),
    ).toBe(
      'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    );
  });

  it('refuses a tool_result without a tool_use in the previous message', async () => {
    expect(
      await rejection({
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: '4' }],
          },
        ],
      }),
    ).toBe(
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    expect(
      await rejection({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_y' }] }],
      }),
    ).toMatch(
      /^messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_y\./,
    );
  });

  const unanswered = (ids: string, index = 1): string =>
    `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;

  it('refuses tool_use ids without tool_result blocks immediately after', async () => {
    const onlyA = [{ type: 'tool_result', tool_use_id: 'toolu_a', content: '4' }];
    expect(
      await rejection({ ...base, messages: [...toolTurn, { role: 'user', content: onlyA }] }),
    ).toBe(unanswered('toolu_b'));
    expect(
      await rejection({ ...base, messages: [...toolTurn, { role: 'user', content: 'well?' }] }),
    ).toBe(unanswered('toolu_a, toolu_b'));
    expect(await rejection({ ...base, messages: [...toolTurn] })).toBe(
      unanswered('toolu_a, toolu_b'),
    );
  });

  it('refuses text before the tool results (tool_result blocks must come first)', async () => {
    const message = await rejection({
      ...base,
      messages: [
        ...toolTurn,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here are the results:' },
            { type: 'tool_result', tool_use_id: 'toolu_a', content: '4' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: '6' },
          ],
        },
      ],
    });
    expect(message).toBe(unanswered('toolu_a, toolu_b'));
  });

  it('refuses empty content, except in a final assistant message', async () => {
    const empty =
      'all messages must have non-empty content except for the optional final assistant message';
    expect(await rejection({ ...base, messages: [{ role: 'user', content: '' }] })).toBe(
      `messages.0: ${empty}`,
    );
    expect(
      await rejection({
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [] },
          { role: 'user', content: 'again' },
        ],
      }),
    ).toBe(`messages.1: ${empty}`);
    expect(
      await rejection({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }],
      }),
    ).toBe('messages: text content blocks must be non-empty');
    expect(
      await rejection({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }],
      }),
    ).toBe('messages: text content blocks must contain non-whitespace text');
  });

  it('checks the request shape as the API does', async () => {
    const hi = [{ role: 'user', content: 'hi' }];
    expect(await rejection({ model: 'm', messages: hi })).toBe('max_tokens: Field required');
    expect(await rejection({ max_tokens: 5, messages: hi })).toBe('model: Field required');
    expect(await rejection({ ...base })).toBe('messages: Field required');
    expect(await rejection({ ...base, messages: [] })).toBe(
      'messages: at least one message is required',
    );
    expect(await rejection({ ...base, max_tokens: 0, messages: hi })).toBe(
      'max_tokens: Input should be greater than or equal to 1',
    );
    expect(
      await rejection({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'video', text: 'x' }] }],
      }),
    ).toMatch(/^messages\.0\.content\.0: Input tag 'video' found using 'type'/);
    expect(
      await rejection({
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: 'x' }],
          },
        ],
      }),
    ).toBe('messages.1.content.0.input: Input should be a valid dictionary');
    expect(
      await rejection({
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'text/plain', data: 'AA==' } },
            ],
          },
        ],
      }),
    ).toBe(
      "messages.0.content.0.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    );
    expect(
      await rejection({ ...base, messages: hi, tools: [{ name: 'calc', description: 'c' }] }),
    ).toBe('tools.0.input_schema: Field required');
    const calc = { name: 'calc', input_schema: { type: 'object' } };
    expect(await rejection({ ...base, messages: hi, tools: [calc, calc] })).toBe(
      'tools: Tool names must be unique.',
    );
  });

  it('checks a streaming request as any other: 400 JSON before any event', async () => {
    expect(
      await rejection({ ...base, stream: true, messages: [{ role: 'assistant', content: 'hi' }] }),
    ).toMatch(/first message must use the "user" role/);
  });

  it("streams events that the SDK's own MessageStream assembles into the same message", async () => {
    const messages = [{ role: 'user' as const, content: 'use a tool' }];
    const plain = await client.messages.create({ ...base, messages });
    const stream = client.messages.stream({ ...base, messages });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(texts).toEqual(['Let ', 'me ', 'check.']);
    expect(final.content).toEqual(
      plain.content.map((block) =>
        block.type === 'tool_use' ? { ...block, id: expect.stringMatching(/^toolu_/) } : block,
      ),
    );
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.input_tokens).toBe(plain.usage.input_tokens);
    expect(final.usage.output_tokens).toBe(plain.usage.output_tokens);
  });

  it('answers other paths with 404 and requests without an API key with 401', async () => {
    const notFound = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    const anonymous = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
  });
});
