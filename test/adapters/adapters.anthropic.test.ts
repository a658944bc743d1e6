import Anthropic from '@anthropic-ai/sdk';
import { imageMessage, isConversationMemoryError, type Message } from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompletionRequest } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';
import {
  type AnthropicServer,
  type ScriptedReply,
  startAnthropicServer,
} from '../support/loopback/anthropicServer';

let server: AnthropicServer;
let client: Anthropic;
/** What the server answers next (each test sets it); the default echoes. */
let next: ScriptedReply | undefined;

beforeAll(async () => {
  server = await startAnthropicServer({
    respond: () => next ?? { text: 'Hello!', usage: { input_tokens: 11, output_tokens: 2 } },
  });
  client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  next = undefined;
});

const request = (messages: readonly Message[], extra: Partial<CompletionRequest> = {}) => ({
  model: 'claude-test',
  systemPrompt: '',
  messages,
  ...extra,
});

const lastRequest = () => server.requests.at(-1);

/** The error `promise` rejects with. */
const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error,
  );

describe('anthropicProvider with the real client against the loopback server', () => {
  it('turns a text reply into an assistant message with usage', async () => {
    const provider = anthropicProvider({ client });
    const result = await provider.complete(request([user('hi')], { systemPrompt: 'Be brief.' }));
    expect(result).toEqual({
      message: { role: 'assistant', content: 'Hello!' },
      usage: { inputTokens: 11, outputTokens: 2 },
    });
    expect(lastRequest()).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(provider.name).toBe('anthropic');
  });

  it('reads cache reads and writes, and counts them in inputTokens', async () => {
    next = {
      text: 'Hello!',
      usage: {
        input_tokens: 11,
        output_tokens: 2,
        cache_read_input_tokens: 2048,
        cache_creation_input_tokens: 300,
      },
    };
    const result = await anthropicProvider({ client }).complete(request([user('hi')]));
    expect(result.usage).toEqual({
      inputTokens: 2359,
      cachedInputTokens: 2048,
      cacheWriteTokens: 300,
      outputTokens: 2,
    });
  });

  it('turns tool_use blocks into tool calls with their ids', async () => {
    next = {
      text: 'Let me check.',
      toolUses: [
        { id: 'toolu_01', name: 'calc', input: { expr: '2+2' } },
        { name: 'weather', input: { city: 'Paris', days: [1, 2] } },
      ],
    };
    const { message } = await anthropicProvider({ client }).complete(request([user('2+2?')]));
    expect(message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [
        { id: 'toolu_01', name: 'calc', parameters: { expr: '2+2' } },
        {
          id: expect.stringMatching(/^toolu_/),
          name: 'weather',
          parameters: { city: 'Paris', days: [1, 2] },
        },
      ],
    });
    next = { toolUses: [{ id: 'toolu_02', name: 'calc', input: {} }] };
    const only = await anthropicProvider({ client }).complete(request([user('again')]));
    expect(only.message).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'toolu_02', name: 'calc', parameters: {} }],
    });
  });

  it('sends the system prompt and lifted system messages, merged tool results and mapped tools', async () => {
    const provider = anthropicProvider({ client, defaultMaxTokens: 300 });
    const tools = [
      {
        name: 'calc',
        description: 'Evaluates arithmetic',
        parameters: { type: 'object', properties: { expr: { type: 'string' } } },
      },
    ];
    await provider.complete(
      request(
        [
          system('[Conversation Summary] The user likes sums.'),
          user('What are 2+2 and 3+3?'),
          assistant('Checking.', call('toolu_a', 'calc', { expr: '2+2' }), call('toolu_b', 'calc')),
          tool('4', 'toolu_a'),
          tool('6', 'toolu_b'),
          user('And 4+4?'),
        ],
        { systemPrompt: 'You are a calculator.', tools },
      ),
    );
    expect(lastRequest()).toEqual({
      model: 'claude-test',
      max_tokens: 300,
      system: 'You are a calculator.\n\n[Conversation Summary] The user likes sums.',
      messages: [
        { role: 'user', content: 'What are 2+2 and 3+3?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_a', name: 'calc', input: { expr: '2+2' } },
            { type: 'tool_use', id: 'toolu_b', name: 'calc', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: '4' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: '6' },
            { type: 'text', text: 'And 4+4?' },
          ],
        },
      ],
      tools: [
        {
          name: 'calc',
          description: 'Evaluates arithmetic',
          input_schema: { type: 'object', properties: { expr: { type: 'string' } } },
        },
      ],
    });
  });

  it('sends images as image blocks the API accepts', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUg==';
    await anthropicProvider({ client }).complete(
      request([
        imageMessage('https://example.com/cat.png', 'What is it?'),
        assistant('A cat.'),
        imageMessage({ base64: png, mediaType: 'image/png' }, 'And this?'),
      ]),
    );
    expect(lastRequest()?.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'And this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      ],
    });
  });

  it('takes the model and max_tokens from the request first, then from the options', async () => {
    const provider = anthropicProvider({ client, defaultModel: 'claude-default', name: 'claude' });
    expect(provider).toMatchObject({ name: 'claude', defaultModel: 'claude-default' });
    await provider.complete(request([user('hi')], { model: '', maxTokens: 50 }));
    expect(lastRequest()).toMatchObject({ model: 'claude-default', max_tokens: 50 });
    await provider.complete(request([user('hi')], { model: 'claude-other' }));
    expect(lastRequest()).toMatchObject({ model: 'claude-other', max_tokens: 1024 });
    expect(lastRequest()).not.toHaveProperty('system');
    expect(lastRequest()).not.toHaveProperty('tools');
    const error = await rejectionOf(
      anthropicProvider({ client }).complete(request([user('hi')], { model: '' })),
    );
    expect(isConversationMemoryError(error) && error.code).toBe('CM_AGENT_CONFIG');
  });

  it('skips blocks a Message has no place for, and reads an empty reply as empty content', async () => {
    next = {
      status: 200,
      body: {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Part one, ' },
          { type: 'text', text: 'part two.' },
        ],
      },
    };
    const provider = anthropicProvider({ client });
    expect(await provider.complete(request([user('hi')]))).toEqual({
      message: { role: 'assistant', content: 'Part one, part two.' },
    });
    next = {};
    expect((await provider.complete(request([user('hi')]))).message).toEqual({
      role: 'assistant',
      content: '',
    });
  });
});

describe('the API rules surface as the client’s own BadRequestError, unchanged', () => {
  const apiMessage = async (messages: readonly Message[]): Promise<string> => {
    const error = await rejectionOf(anthropicProvider({ client }).complete(request(messages)));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
      error: { type: string; message: string };
    };
    expect(body.error.type).toBe('invalid_request_error');
    return body.error.message;
  };

  it('reports a first message that is not a user message', async () => {
    expect(await apiMessage([system('rules'), assistant('Hello!'), user('hi')])).toBe(
      'messages: first message must use the "user" role',
    );
  });

  it('reports a tool result whose call is not in the previous message', async () => {
    expect(await apiMessage([user('hi'), assistant('Hello!'), tool('4', 'toolu_gone')])).toBe(
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_gone. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  it('reports tool calls without results', async () => {
    const calls = assistant(null, call('toolu_a'), call('toolu_b'));
    expect(await apiMessage([user('hi'), calls, tool('4', 'toolu_a'), user('next')])).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('reports empty content', async () => {
    expect(await apiMessage([user('hi'), assistant(''), user('again')])).toBe(
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
    );
  });

  it('lets other HTTP errors and aborts pass through unchanged', async () => {
    next = {
      status: 529,
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    };
    const overloaded = await rejectionOf(
      anthropicProvider({ client }).complete(request([user('hi')])),
    );
    expect(overloaded).toBeInstanceOf(Anthropic.APIError);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    const aborted = await rejectionOf(
      anthropicProvider({ client }).complete(
        request([user('hi')], { signal: AbortSignal.abort() }),
      ),
    );
    expect(aborted).toBeInstanceOf(Anthropic.APIUserAbortError);
  });
});

describe('hostile replies reject with ProviderResponseError naming the path and the value', () => {
  const failure = async (body: unknown): Promise<string> => {
    next = { status: 200, body };
    const error = await rejectionOf(anthropicProvider({ client }).complete(request([user('hi')])));
    if (!isConversationMemoryError(error)) throw error;
    expect(error.code).toBe('CM_PROVIDER_RESPONSE');
    expect(error.message).toMatch(
      /^\[conversation-memory\] anthropicProvider: provider "anthropic": /,
    );
    return error.detail;
  };
  const reply = (content: unknown, extra: object = {}) => ({
    type: 'message',
    role: 'assistant',
    content,
    ...extra,
  });

  it('names what is wrong', async () => {
    expect(await failure({ hello: 'world' })).toBe(
      'provider "anthropic": the reply is not a valid Anthropic message: type: expected "message", got undefined; role: expected "assistant", got undefined; content: expected list of content blocks, got undefined',
    );
    expect(await failure(null)).toMatch(/\(root\): expected Anthropic message object, got null$/);
    expect(
      await failure(reply([{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: 'x' }])),
    ).toMatch(/: content\[0\]\.input: expected a JSON object, got "x"$/);
    expect(await failure(reply([{ type: 'tool_use', id: '', name: 'calc', input: {} }]))).toMatch(
      /: content\[0\]\.id: expected a non-empty string, got ""$/,
    );
    expect(await failure(reply([{ type: 'text', text: 42 }]))).toMatch(
      /: content\[0\]\.text: expected string, got 42$/,
    );
    expect(await failure(reply(['oops']))).toMatch(
      /: content\[0\]: expected content block object, got "oops"$/,
    );
    expect(await failure(reply([], { usage: { input_tokens: -1, output_tokens: 1.5 } }))).toMatch(
      /usage\.input_tokens: expected an integer from 0 to 2\^53 − 1, got -1; usage\.output_tokens: expected an integer from 0 to 2\^53 − 1, got 1\.5$/,
    );
  });

  it('stays bounded on a huge reply', async () => {
    const detail = await failure(reply(Array.from({ length: 5000 }, () => 1)));
    expect(detail).toMatch(
      /content\[4\]: expected content block object, got 1; … and at least 995 more$/,
    );
  });
});

describe('anthropicProvider options', () => {
  it('rejects invalid options at once, naming the option and the value', () => {
    const invalid = [
      [{}, 'options.client must be an Anthropic client (new Anthropic()), received undefined'],
      [
        { client, defaultMaxTokens: 0 },
        'options.defaultMaxTokens must be an integer ≥ 1, received 0',
      ],
      [
        { client, defaultModel: '' },
        'options.defaultModel must be a non-empty string, received ""',
      ],
      [{ client, name: 7 }, 'options.name must be a string, received 7'],
      [null, 'options must be an object such as { client }, received null'],
    ] as const;
    for (const [options, detail] of invalid) {
      expect(() => anthropicProvider(options as never)).toThrow(
        expect.objectContaining({ code: 'CM_AGENT_CONFIG', detail }),
      );
    }
  });
});
