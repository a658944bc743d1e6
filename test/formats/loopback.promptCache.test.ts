/**
 * The loopback servers' prompt caches (issue #29 §3), through the real clients, streaming and not:
 *
 * - OpenAI: `prompt_tokens_details.cached_tokens` is the longest prefix shared with a recent
 *   request (same model, same tools), past 1,024 tokens, rounded down to a multiple of 128; read by
 *   `openaiProvider` as `cachedInputTokens`.
 * - Anthropic: the longest prefix ending at (or up to 20 blocks before) a `cache_control`
 *   breakpoint that an earlier request wrote is read; new breakpoints of at least 1,024 tokens are
 *   written; `input_tokens` is the rest. Read by `fromAnthropicReply` (the decoder
 *   `anthropicProvider` uses) with `inputTokens` the sum of the three.
 *
 * Tokens are the servers' estimate: a quarter of the characters.
 */
import Anthropic from '@anthropic-ai/sdk';
import { either as E } from 'fp-ts';
import { afterEach, describe, expect, it } from 'vitest';
import { fromAnthropicReply, type CompletionUsage, type Message } from 'conversation-memory';
import { assistant, user } from '../helpers';
import { openaiCachedTokens } from '../support/loopback/openaiPromptCache';
import { type AnthropicServer, startAnthropicServer } from '../support/loopback/anthropicServer';
import { request, useOpenAIServer } from '../support/openaiHarness';

/** A text of about `tokens` tokens (4 characters each), different for each `seed`. */
const text = (tokens: number, seed: string): string =>
  `${seed}: ${'lorem ipsum dolor sit amet '.repeat(Math.ceil((tokens * 4) / 27))}`.slice(
    0,
    tokens * 4,
  );

describe('OpenAI loopback: automatic prefix caching', () => {
  const start = useOpenAIServer();

  const usageOf = async (
    provider: Awaited<ReturnType<typeof start>>['provider'],
    messages: Message[],
    streamed: boolean,
  ): Promise<CompletionUsage | undefined> => {
    const asked = request(messages);
    if (!streamed) return (await provider.complete(asked)).usage;
    let usage: CompletionUsage | undefined;
    const { stream } = provider;
    if (stream === undefined) throw new Error('openaiProvider streams');
    for await (const part of stream(asked)) {
      if (part.type === 'finish') usage = part.result.usage;
    }
    return usage;
  };

  it('the rule: nothing below 1,024 tokens, then steps of 128', () => {
    expect([0, 1, 1023, 1024, 1100, 1151, 1152, 1279, 1280, 5000].map(openaiCachedTokens)).toEqual([
      0, 0, 0, 1024, 1024, 1024, 1152, 1152, 1280, 4992,
    ]);
  });

  for (const streamed of [false, true]) {
    it(`a growing conversation reads its earlier prefix from the cache (stream: ${streamed})`, async () => {
      const { provider, server } = await start();
      const first = [user(text(3000, 'first'))];
      const one = await usageOf(provider, first, streamed);
      // Nothing cached on the first call; the count is there (0), as OpenAI sends it.
      expect(one?.cachedInputTokens).toBe(0);
      const second = [...first, assistant('Noted.'), user('And then?')];
      const two = await usageOf(provider, second, streamed);
      const sent = server.requests.map((body) => JSON.stringify(body.messages));
      // The longest common prefix of the two requests' messages, counted in tokens.
      let common = 0;
      while (sent[0]?.[common] === sent[1]?.[common]) common++;
      expect(two?.cachedInputTokens).toBe(openaiCachedTokens(Math.floor(common / 4)));
      expect(two?.cachedInputTokens).toBeGreaterThanOrEqual(2944);
      expect(two?.cachedInputTokens).toBeLessThanOrEqual(two?.inputTokens ?? 0);
      expect((two?.cachedInputTokens ?? 0) % 128).toBe(0);
      // The same prompt again: all of it but the part past the last step of 128.
      const three = await usageOf(provider, second, streamed);
      expect(three?.inputTokens).toBe(two?.inputTokens);
      expect(three?.cachedInputTokens).toBe(openaiCachedTokens(three?.inputTokens ?? 0));
    });
  }

  it('a short prompt is never cached, however often it is sent', async () => {
    const { provider } = await start();
    const short = [user(text(900, 'short'))];
    for (let i = 0; i < 3; i++) {
      expect((await usageOf(provider, short, false))?.cachedInputTokens).toBe(0);
    }
  });

  it('another model or other tools share no cache', async () => {
    const { provider } = await start();
    const long = [user(text(2000, 'long'))];
    await provider.complete(request(long));
    const otherModel = await provider.complete(request(long, { model: 'gpt-other' }));
    expect(otherModel.usage?.cachedInputTokens).toBe(0);
    const tool = { name: 'calc', description: 'Adds', parameters: { type: 'object' } };
    const otherTools = await provider.complete(request(long, { tools: [tool] }));
    expect(otherTools.usage?.cachedInputTokens).toBe(0);
    const same = await provider.complete(request(long));
    expect(same.usage?.cachedInputTokens).toBeGreaterThanOrEqual(1024);
  });
});

describe('Anthropic loopback: cache_control breakpoints', () => {
  let server: AnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = async () => {
    server = await startAnthropicServer({ respond: () => ({ text: 'OK.' }) });
    return new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
  };
  const ephemeral = { type: 'ephemeral' } as const;
  const system = (tokens: number) => [
    { type: 'text' as const, text: text(tokens, 'system'), cache_control: ephemeral },
  ];
  type Params = Anthropic.MessageCreateParamsNonStreaming;

  const send = async (
    anthropic: Anthropic,
    params: Omit<Params, 'model' | 'max_tokens'>,
    streamed: boolean,
  ) => {
    const full = { model: 'claude-test', max_tokens: 64, ...params };
    const message = streamed
      ? await anthropic.messages.stream(full).finalMessage()
      : await anthropic.messages.create(full);
    const reply = fromAnthropicReply(message);
    if (E.isLeft(reply)) throw reply.left;
    return { wire: message.usage, usage: reply.right.usage };
  };

  for (const streamed of [false, true]) {
    it(`writes a breakpoint's prefix once, then reads it (stream: ${streamed})`, async () => {
      const anthropic = await client();
      const messages = [{ role: 'user' as const, content: 'Hello?' }];
      const one = await send(anthropic, { system: system(2000), messages }, streamed);
      expect(one.wire.cache_read_input_tokens).toBe(0);
      expect(one.wire.cache_creation_input_tokens).toBeGreaterThanOrEqual(2000);
      const two = await send(anthropic, { system: system(2000), messages }, streamed);
      expect(two.wire.cache_read_input_tokens).toBe(one.wire.cache_creation_input_tokens);
      expect(two.wire.cache_creation_input_tokens).toBe(0);
      // Anthropic's input_tokens leaves the cache out; inputTokens counts every token, the same
      // for both calls of the same prompt.
      expect(two.wire.input_tokens).toBe(one.wire.input_tokens);
      expect(two.usage?.inputTokens).toBe(one.usage?.inputTokens);
      expect(two.usage).toEqual({
        inputTokens: two.wire.input_tokens + (two.wire.cache_read_input_tokens ?? 0),
        cachedInputTokens: two.wire.cache_read_input_tokens,
        cacheWriteTokens: 0,
        outputTokens: two.wire.output_tokens,
      });
    });
  }

  it('a later breakpoint reads the earlier prefix and writes only what is new', async () => {
    const anthropic = await client();
    const first = await send(
      anthropic,
      { system: system(1500), messages: [{ role: 'user', content: 'Question one?' }] },
      false,
    );
    const written = first.wire.cache_creation_input_tokens ?? 0;
    const turn = [
      { role: 'user' as const, content: 'Question one?' },
      { role: 'assistant' as const, content: 'Answer one.' },
      {
        role: 'user' as const,
        content: [{ type: 'text' as const, text: text(800, 'turn'), cache_control: ephemeral }],
      },
    ];
    const second = await send(anthropic, { system: system(1500), messages: turn }, false);
    expect(second.wire.cache_read_input_tokens).toBe(written);
    // Written: the tokens from the system breakpoint to the new one, about 800 of them.
    expect(second.wire.cache_creation_input_tokens).toBeGreaterThanOrEqual(800);
    expect(second.wire.cache_creation_input_tokens).toBeLessThan(850);
    expect(second.wire.input_tokens).toBe(0);
    const third = await send(anthropic, { system: system(1500), messages: turn }, false);
    expect(third.wire.cache_read_input_tokens).toBe(
      written + (second.wire.cache_creation_input_tokens ?? 0),
    );
  });

  it('a prefix under 1,024 tokens is neither written nor read', async () => {
    const anthropic = await client();
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    for (let i = 0; i < 2; i++) {
      const { wire } = await send(anthropic, { system: system(900), messages }, false);
      expect([wire.cache_read_input_tokens, wire.cache_creation_input_tokens]).toEqual([0, 0]);
    }
  });

  it('a request without a breakpoint reports no cache counts (null), as before', async () => {
    const anthropic = await client();
    const long = [{ role: 'user' as const, content: text(3000, 'plain') }];
    for (let i = 0; i < 2; i++) {
      const { wire, usage } = await send(anthropic, { messages: long }, false);
      expect([wire.cache_read_input_tokens, wire.cache_creation_input_tokens]).toEqual([
        null,
        null,
      ]);
      expect(usage).not.toHaveProperty('cachedInputTokens');
    }
  });

  it('a changed system prompt misses the cache', async () => {
    const anthropic = await client();
    const messages = [{ role: 'user' as const, content: 'Hello?' }];
    await send(anthropic, { system: system(2000), messages }, false);
    const changed = [
      { type: 'text' as const, text: `${text(2000, 'system')}!`, cache_control: ephemeral },
    ];
    const { wire } = await send(anthropic, { system: changed, messages }, false);
    expect(wire.cache_read_input_tokens).toBe(0);
    expect(wire.cache_creation_input_tokens).toBeGreaterThan(2000);
  });
});
