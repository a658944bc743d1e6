/**
 * `toAnthropic(messages, { cache })` (issue #29 §2): each marked message's last block carries
 * `cache_control` (a system text block, a tool result inside a merged user message, a string
 * content made a block, an assistant's last `tool_use`), `system` is text blocks, the one-hour
 * cache says so, and without `cache` the result is the one without options. A wrong `cache` is
 * an error naming the field and the value.
 */
import { describe, expect, it } from 'vitest';
import {
  assistantMessage,
  systemMessage,
  toAnthropic,
  toolMessage,
  userMessage,
  type CacheBreakpoints,
} from 'conversation-memory';

const EPHEMERAL = { type: 'ephemeral' } as const;
const call = (id: string) => ({ id, name: 'calc', parameters: { a: 1 } });
const result = (id: string) => toolMessage(`r ${id}`, { toolCallId: id, toolName: 'calc' });

const conversation = [
  systemMessage('Be brief.'), // 0
  systemMessage('[Conversation Summary] Ann is 30.'), // 1
  userMessage('u1'), // 2
  assistantMessage(null, [call('c1'), call('c2')]), // 3
  result('c1'), // 4
  result('c2'), // 5
  userMessage('and then?'), // 6 (merged after the results)
  assistantMessage('a1'), // 7
  userMessage('u2'), // 8
];

const cached = (breakpoints: number[], ttl: CacheBreakpoints['ttl'] = '5m') =>
  toAnthropic(conversation, { cache: { ttl, breakpoints } });

describe('toAnthropic with cache breakpoints', () => {
  it('marks the last block of each marked message, and sends system as text blocks', () => {
    expect(cached([1, 7, 8])).toEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: '[Conversation Summary] Ann is 30.', cache_control: EPHEMERAL },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'u1' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'c1', name: 'calc', input: { a: 1 } },
            { type: 'tool_use', id: 'c2', name: 'calc', input: { a: 1 } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: 'r c1' },
            { type: 'tool_result', tool_use_id: 'c2', content: 'r c2' },
            { type: 'text', text: 'and then?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'a1', cache_control: EPHEMERAL }] },
        { role: 'user', content: [{ type: 'text', text: 'u2', cache_control: EPHEMERAL }] },
      ],
    });
  });

  // The prompt caches compare a request's blocks, so a message must be sent the same way marked
  // or not: otherwise the prefix a call wrote (the newest turn, marked, as a block) is never read
  // by the next call (the same message, unmarked, as a string). Every set of at most four marks.
  it('sends every message the same way whether it is marked or not (only cache_control differs)', () => {
    const strip = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (key, inner: unknown) =>
          key === 'cache_control' ? undefined : inner,
        ),
      );
    const unmarked = strip(cached([]));
    const indices = conversation.map((_, i) => i);
    const sets: number[][] = [[]];
    for (const i of indices) {
      for (const set of sets.slice()) if (set.length < 4) sets.push([...set, i]);
    }
    expect(sets).toHaveLength(256);
    for (const set of sets) expect([set, strip(cached(set))]).toEqual([set, unmarked]);
  });

  it('marks a tool result inside the user message it shares, and the text merged after it', () => {
    const { messages } = cached([4, 6]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'r c1', cache_control: EPHEMERAL },
      { type: 'tool_result', tool_use_id: 'c2', content: 'r c2' },
      { type: 'text', text: 'and then?', cache_control: EPHEMERAL },
    ]);
  });

  it("marks an assistant's last tool_use block, and the first user turn", () => {
    const { messages } = cached([2, 3]);
    expect(messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'u1', cache_control: EPHEMERAL }],
    });
    expect(messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'calc', input: { a: 1 } },
      { type: 'tool_use', id: 'c2', name: 'calc', input: { a: 1 }, cache_control: EPHEMERAL },
    ]);
  });

  it('selects the one-hour cache with ttl "1h"', () => {
    const { system, messages } = cached([0, 8], '1h');
    expect(system?.[0]).toEqual({
      type: 'text',
      text: 'Be brief.',
      cache_control: { type: 'ephemeral', ttl: '1h' },
    });
    expect(messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'u2', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
  });

  it('sends system as blocks with cache on even when no system message is marked', () => {
    expect(cached([8]).system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: '[Conversation Summary] Ann is 30.' },
    ]);
    expect(toAnthropic([userMessage('hi')], { cache: { ttl: '5m', breakpoints: [0] } })).toEqual({
      system: undefined,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] },
      ],
    });
  });

  it('leaves a marked message that has no block unmarked (an empty final assistant turn)', () => {
    const messages = [userMessage('hi'), assistantMessage('')];
    expect(toAnthropic(messages, { cache: { ttl: '5m', breakpoints: [0, 1] } }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] },
      { role: 'assistant', content: '' },
    ]);
  });

  it('is the result without options when cache is absent, and changes no input', () => {
    const before = JSON.stringify(conversation);
    expect(toAnthropic(conversation, {})).toEqual(toAnthropic(conversation));
    expect(toAnthropic(conversation, { cache: undefined })).toEqual(toAnthropic(conversation));
    expect(typeof toAnthropic(conversation).system).toBe('string');
    cached([0, 4, 8]);
    expect(JSON.stringify(conversation)).toBe(before);
  });

  it('takes a request cache with its key (a CompletionRequest.cache)', () => {
    expect(
      toAnthropic(conversation, {
        cache: { ttl: '5m', breakpoints: [8], key: 'thread-7' } as never,
      }),
    ).toEqual(cached([8]));
  });

  it('refuses a wrong cache, naming the field and the value', () => {
    const cases: readonly [unknown, string][] = [
      ['yes', 'options.cache must be an object such as'],
      [{ ttl: '10m', breakpoints: [] }, `options.cache.ttl must be '5m' or '1h', received "10m"`],
      [
        { ttl: '5m' },
        'options.cache.breakpoints must be an array of message indices, received undefined',
      ],
      [
        { ttl: '5m', breakpoints: [9] },
        'options.cache.breakpoints[0] must be an index of messages (below 9), received 9',
      ],
      [
        { ttl: '5m', breakpoints: [3, 2] },
        'options.cache.breakpoints[1] must be an index of messages after 3, received 2',
      ],
      [
        { ttl: '5m', breakpoints: [1.5] },
        'options.cache.breakpoints[0] must be an index of messages after -1, received 1.5',
      ],
      [
        { ttl: '5m', breakpoints: [0, 1, 2, 3, 4] },
        "options.cache.breakpoints may hold at most 4 indices (the API's limit), received 5",
      ],
      [
        { ttl: '5m', breakpoints: [], ttL: '1h' },
        'options.cache.ttL is not an option (did you mean ttl?)',
      ],
    ];
    for (const [cache, message] of cases) {
      expect(
        () => toAnthropic(conversation, { cache: cache as never }),
        JSON.stringify(cache),
      ).toThrow(`toAnthropic: ${message}`);
    }
  });
});
