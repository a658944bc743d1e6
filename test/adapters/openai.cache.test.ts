/**
 * Prompt cache keys end to end with the real `openai` client against the loopback server (issue
 * #29 §2): a request's `cache.key` is sent as `prompt_cache_key` (bounded to the API's 64
 * characters), from `complete`, `stream` and the agent's calls with `config.cache` (the session's
 * or event stream's key, or `config.cacheKey`); without it the request is the one of before; the
 * server refuses a key the API refuses.
 */
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  createAgent,
  InMemoryEventStore,
  InMemorySessionStore,
  modelView,
  type AgentConfig,
  type AgentOptions,
  type AgentTool,
} from 'conversation-memory';
import { openaiProvider } from 'conversation-memory/openai';
import { user } from '../helpers';
import { rejection, request, send, useOpenAIServer } from '../support/openaiHarness';

const start = useOpenAIServer();

const calcTool: AgentTool = {
  name: 'calc',
  description: 'Adds',
  parameters: { type: 'object', properties: { expr: { type: 'string' } } },
  execute: () => '4',
};

describe('openaiProvider sends the cache key', () => {
  it('as prompt_cache_key, the rest of the request unchanged', async () => {
    const { provider, server } = await start();
    const messages = [user('hi')];
    await provider.complete(request(messages));
    await provider.complete(
      request(messages, { cache: { ttl: '5m', breakpoints: [0], key: 'user-42:thread-7' } }),
    );
    const [plain, keyed] = server.requests;
    expect(keyed).toEqual({ ...plain, prompt_cache_key: 'user-42:thread-7' });
    expect(plain).not.toHaveProperty('prompt_cache_key');
  });

  it('sends nothing of the cache without a key (OpenAI caches prefixes by itself)', async () => {
    const { provider, server } = await start();
    const view = modelView(addMessage(createMemory({ tokenizer: 'heuristic' }), user('hi')).state, {
      target: 'openai',
      cache: true,
    });
    await provider.complete(request([user('hi')]));
    await provider.complete(request([...view.messages], { cache: view.cache }));
    expect(server.requests[1]).toEqual(server.requests[0]);
  });

  it('bounds a key over 64 characters: the same key gives the same value, the server takes it', async () => {
    const { provider, server } = await start();
    const long = `tenant-with-a-long-name:${'thread-'.repeat(10)}`;
    const other = `${long}-2`;
    for (const key of [long, long, other]) {
      await provider.complete(
        request([user('hi')], { cache: { ttl: '5m', breakpoints: [], key } }),
      );
    }
    const keys = server.requests.map((body) => body['prompt_cache_key'] as string);
    expect(long.length).toBeGreaterThan(64);
    for (const key of keys) expect(key.length).toBe(64);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[0]?.startsWith(long.slice(0, 49))).toBe(true);
    // A key of exactly 64 characters is sent as it is.
    const exact = 'k'.repeat(64);
    await provider.complete(
      request([user('hi')], { cache: { ttl: '5m', breakpoints: [], key: exact } }),
    );
    expect(server.requests.at(-1)?.['prompt_cache_key']).toBe(exact);
  });

  it('sends it when streaming', async () => {
    const { provider, server } = await start();
    const parts = [];
    for await (const part of provider.stream?.(
      request([user('hi')], { cache: { ttl: '5m', breakpoints: [0], key: 'thread-7' } }),
    ) ?? []) {
      parts.push(part.type);
    }
    expect(parts.at(-1)).toBe('finish');
    expect(server.requests.at(-1)).toMatchObject({ stream: true, prompt_cache_key: 'thread-7' });
  });

  it('the loopback server refuses a key the API refuses', async () => {
    const { client, server } = await start();
    const tooLong = await rejection(
      send(client, [{ role: 'user', content: 'hi' }], { prompt_cache_key: 'k'.repeat(65) }),
    );
    expect(tooLong).toMatchObject({
      status: 400,
      error: {
        message:
          "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
        param: 'prompt_cache_key',
        code: 'string_above_max_length',
      },
    });
    const notString = await rejection(
      send(client, [{ role: 'user', content: 'hi' }], { prompt_cache_key: 7 }),
    );
    expect(notString).toMatchObject({ status: 400, error: { param: 'prompt_cache_key' } });
    expect(server.rejected).toHaveLength(2);
    await send(client, [{ role: 'user', content: 'hi' }], { prompt_cache_key: 'k'.repeat(64) });
    expect(server.requests).toHaveLength(1);
  });
});

describe('the agent with config.cache sends a key on every main call', () => {
  const keysOf = async (
    options: Omit<AgentOptions, 'provider'>,
    config: AgentConfig,
  ): Promise<unknown[]> => {
    let calls = 0;
    const { client, server } = await start({
      respond: () =>
        calls++ % 2 === 0 ? { toolCalls: [{ name: 'calc', arguments: {} }] } : 'It is 4.',
    });
    const agent = createAgent({
      provider: openaiProvider({ client, defaultModel: 'gpt-test' }),
      tools: [calcTool],
      ...options,
      config,
    });
    await agent.run('What is 2+2?');
    for await (const event of agent.stream('And 3+3?')) void event;
    expect(server.requests).toHaveLength(4);
    return server.requests.map((body) => body['prompt_cache_key']);
  };

  it("the session's key", async () => {
    const session = { store: new InMemorySessionStore(), id: 'thread-7', namespace: 'user-42' };
    expect(await keysOf({ session }, { cache: true })).toEqual(Array(4).fill('user-42:thread-7'));
  });

  it("the event stream's key", async () => {
    const eventStore = { store: new InMemoryEventStore(), streamId: 'thread-8' };
    expect(await keysOf({ eventStore }, { cache: { ttl: '1h' } })).toEqual(
      Array(4).fill('thread-8'),
    );
  });

  it('config.cacheKey, in place of the session’s', async () => {
    const session = { store: new InMemorySessionStore(), id: 'thread-7' };
    expect(await keysOf({ session }, { cache: true, cacheKey: 'team-a' })).toEqual(
      Array(4).fill('team-a'),
    );
    expect(
      await keysOf({ memory: new ConversationMemory() }, { cache: true, cacheKey: 'team-b' }),
    ).toEqual(Array(4).fill('team-b'));
  });

  it('none without a session, a stream or a cacheKey, and none without config.cache', async () => {
    expect(await keysOf({ memory: new ConversationMemory() }, { cache: true })).toEqual(
      Array(4).fill(undefined),
    );
    const session = { store: new InMemorySessionStore(), id: 'thread-7' };
    expect(await keysOf({ session }, {})).toEqual(Array(4).fill(undefined));
  });

  it('refuses a wrong config.cache or config.cacheKey, naming it and the value', () => {
    const provider = openaiProvider({
      client: { chat: { completions: { create: () => undefined } } } as never,
      defaultModel: 'gpt-test',
    });
    const cases: readonly [AgentConfig, string][] = [
      [
        { cache: 'on' as never },
        `createAgent: config.cache must be true, false or { ttl: '5m' | '1h' }, received "on"`,
      ],
      [
        { cache: { ttl: '1d' } as never },
        `createAgent: config.cache.ttl must be '5m' or '1h', received "1d"`,
      ],
      [
        { cache: true, cacheKey: '' },
        'createAgent: config.cacheKey must be a non-empty string, received ""',
      ],
      [
        { cache: true, cacheKey: 7 as never },
        'createAgent: config.cacheKey must be a non-empty string, received 7',
      ],
      [{ caching: true } as never, 'config.caching is not an option'],
    ];
    for (const [config, message] of cases) {
      expect(() => createAgent({ provider, config }), message).toThrow(message);
    }
  });
});
