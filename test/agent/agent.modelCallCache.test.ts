/**
 * `onModelCall` shows the request's prompt caching (issue #29): `ModelCallInfo.cache` is the
 * `CompletionRequest.cache` the provider receives (the breakpoints of the call's view, their ttl
 * and the cache key), for every combination of the agent's `cache` and `cacheKey`; absent when the
 * request has none. Observers cannot change what is sent.
 */
import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  type AgentConfig,
  type Message,
  type ModelCallInfo,
} from 'conversation-memory';
import { scriptedProvider } from '../support/scriptedProvider';

const toolThenAnswer = (_request: unknown, call: number): Message =>
  call === 1
    ? { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'clock', parameters: {} }] }
    : { role: 'assistant', content: 'It is noon.' };

const clock = {
  name: 'clock',
  description: 'The time.',
  parameters: { type: 'object', properties: {} },
  execute: () => '12:00',
} as const;

const run = async (config: AgentConfig, observer?: (call: ModelCallInfo) => void) => {
  const provider = scriptedProvider(toolThenAnswer);
  const calls: ModelCallInfo[] = [];
  const agent = createAgent({
    provider,
    memory: new ConversationMemory({ tokenizer: 'heuristic' }),
    tools: [clock],
    config,
    observers: [
      {
        onModelCall: (_runId, call) => {
          calls.push(call);
          observer?.(call);
        },
      },
    ],
  });
  await agent.run('What time is it?');
  await agent.run('Thanks.');
  return { calls, requests: provider.requests };
};

describe('ModelCallInfo.cache', () => {
  const cases: readonly [string, AgentConfig, { ttl: string; key?: string } | null][] = [
    ['cache off', {}, null],
    ['cache: true, no key', { cache: true }, { ttl: '5m' }],
    [
      'cache: true with cacheKey',
      { cache: true, cacheKey: 'thread-7' },
      { ttl: '5m', key: 'thread-7' },
    ],
    [
      'one-hour cache with cacheKey',
      { cache: { ttl: '1h' }, cacheKey: 'k' },
      { ttl: '1h', key: 'k' },
    ],
    ['cacheKey without cache', { cacheKey: 'k' }, null],
  ];
  it.each(cases)(
    '%s: each call shows the cache its request carries',
    async (_name, config, expected) => {
      const { calls, requests } = await run(config);
      expect(calls).toHaveLength(3);
      calls.forEach((call, i) => {
        const sent = requests[i];
        if (expected === null) {
          expect(sent?.cache).toBeUndefined();
          expect(call).not.toHaveProperty('cache');
          return;
        }
        expect(sent?.cache).toMatchObject(expected);
        expect(sent?.cache?.breakpoints.length).toBeGreaterThan(0);
        if (expected.key === undefined) expect(sent?.cache).not.toHaveProperty('key');
        expect(call.cache).toEqual(sent?.cache);
      });
    },
  );

  it('is frozen: an observer cannot change the breakpoints or the key sent', async () => {
    // Observer errors are reported, not thrown: record what the observer saw, check it after.
    const seen: { frozen: boolean; pushed: unknown; keySet: unknown }[] = [];
    const attempt = (change: () => void): unknown => {
      try {
        change();
        return null;
      } catch (error) {
        return error;
      }
    };
    const { requests } = await run({ cache: true, cacheKey: 'k' }, (call) => {
      const cache = call.cache as unknown as { key?: string; breakpoints: number[] };
      seen.push({
        frozen: Object.isFrozen(cache) && Object.isFrozen(cache.breakpoints),
        pushed: attempt(() => cache.breakpoints.push(99)),
        keySet: attempt(() => {
          cache.key = 'other';
        }),
      });
    });
    expect(seen).toHaveLength(3);
    for (const one of seen) {
      expect(one.frozen).toBe(true);
      expect(one.pushed).toBeInstanceOf(TypeError);
      expect(one.keySet).toBeInstanceOf(TypeError);
    }
    for (const request of requests) {
      expect(request.cache?.key).toBe('k');
      expect(request.cache?.breakpoints).not.toContain(99);
    }
  });
});
