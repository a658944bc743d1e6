import { readFileSync } from 'node:fs';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  assistantMessage,
  createMemory,
  fromDict,
  fromDictWithEffects,
  imageMessage,
  type MemoryState,
  messageToDict,
  MemoryArgumentError,
  MemoryDecodeError,
  setSummary,
  toDict,
  toolMessage,
  userMessage,
  DEFAULT_CONFIG,
} from 'conversation-memory';
import { EXTENSION_KEY } from 'conversation-memory/store-kit';
import { registerTokenizer } from 'conversation-memory/tokens';
import { contents } from '../helpers';

const sample = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/reference/${name}`, import.meta.url), 'utf8'));

const load = (input: unknown, tokenizer?: string): MemoryState => {
  const result = fromDict(input, tokenizer === undefined ? {} : { tokenizer });
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const problems = (input: unknown): readonly string[] => {
  const result = fromDict(input);
  if (E.isRight(result)) throw new Error('expected a Left');
  return result.left.problems;
};

const nulls = {
  image_base64: null,
  tool_name: null,
  tool_result: null,
  tool_calls: null,
  tool_call_id: null,
  content_parts: null,
};

describe('toDict: the reference JSON, exactly', () => {
  it('writes all eight message keys in the reference order, with nulls', () => {
    const dict = messageToDict(
      assistantMessage('', [
        { id: 'call_1', name: 'search', parameters: { q: 'x', n: 2 }, thoughtSignature: 'sig' },
      ]),
    );
    expect(JSON.stringify(dict)).toBe(
      '{"role":"assistant","content":"","image_base64":null,"tool_name":null,"tool_result":null,' +
        '"tool_calls":[{"name":"search","parameters":{"q":"x","n":2},"id":"call_1","thought_signature":"sig"}],' +
        '"tool_call_id":null,"content_parts":null}',
    );
  });

  it('writes content parts with their five keys', () => {
    const dict = messageToDict(
      imageMessage({ base64: 'iVBORw0KGgo=', mediaType: 'image/png' }, 'What?'),
    );
    expect(dict.content_parts).toEqual([
      { type: 'text', text: 'What?', image_url: null, image_base64: null, media_type: null },
      {
        type: 'image_base64',
        text: null,
        image_url: null,
        image_base64: 'iVBORw0KGgo=',
        media_type: 'image/png',
      },
    ]);
    expect(Object.keys(dict.content_parts?.[0] ?? {})).toEqual([
      'type',
      'text',
      'image_url',
      'image_base64',
      'media_type',
    ]);
  });

  it('writes the memory keys in order, message_count included', () => {
    const state = setSummary(
      addMessage(createMemory({ maxMessages: 5 }), userMessage('hi')).state,
      'S',
    ).state;
    const dict = toDict(state);
    expect(Object.keys(dict)).toEqual([
      'max_messages',
      'max_tokens',
      'message_count',
      'messages',
      'summary',
    ]);
    expect(dict).toEqual({
      max_messages: 5,
      max_tokens: null,
      message_count: 1,
      messages: [{ role: 'user', content: 'hi', ...nulls }],
      summary: 'S',
    });
  });

  it('keeps a non-default tokenizer under a key the reference ignores', () => {
    expect(EXTENSION_KEY).toBe('conversation_memory');
    const dict = toDict(createMemory({ tokenizer: 'heuristic' }));
    expect(dict.conversation_memory).toEqual({ tokenizer: 'heuristic' });
    expect(load(JSON.parse(JSON.stringify(dict))).config.tokenizer).toBe('heuristic');
  });
});

describe('reference sample files', () => {
  it.each(['memory-tools-summary.json', 'memory-images.json', 'memory-over-limit.json'])(
    '%s loads, and toDict gives the same JSON value back',
    (name) => {
      const input = sample(name);
      expect(toDict(load(input))).toEqual(input);
    },
  );

  it('keeps tool calls, thought signatures, non-ASCII text and the summary', () => {
    const state = load(sample('memory-tools-summary.json'));
    expect(state.config).toEqual({ ...DEFAULT_CONFIG, maxMessages: 8, maxTokens: 200 });
    expect(state.messages[1]?.content).toBe("What's the weather in Paris and in Kyōto? ☀️");
    expect(state.messages[2]?.toolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', parameters: { city: 'Paris' } },
      {
        id: 'call_2',
        name: 'get_weather',
        parameters: { city: 'Kyoto', units: 'metric' },
        thoughtSignature: 'sig-abc',
      },
    ]);
    expect(state.summary).toBe('The user is planning a trip to France and Japan.');
  });

  it('keeps content null and content parts', () => {
    const state = load(sample('memory-images.json'));
    expect(state.messages[1]).toEqual({ role: 'assistant', content: null });
    expect(state.messages[2]?.contentParts).toEqual([
      { type: 'image_base64', imageBase64: 'iVBORw0KGgo=', mediaType: 'image/png' },
    ]);
  });

  it('does not re-apply the limits; the next add trims (memory-over-limit.json)', () => {
    const state = load(sample('memory-over-limit.json'));
    expect(contents(state.messages)).toEqual(['m0', 'm1', 'm2']);
    const next = addMessage(state, userMessage('m3'));
    expect(contents(next.state.messages)).toEqual(['m2', 'm3']);
    expect(next.effects[0]?.type === 'memory/trimmed' && contents(next.effects[0].removed)).toEqual(
      ['m0', 'm1'],
    );
  });

  it('counts tokens afresh with the chosen tokenizer', () => {
    const input = sample('memory-tools-summary.json');
    const heuristic = load(input, 'heuristic');
    expect(heuristic.tokenCounts).toEqual([6, 11, 0, 4, 4, 12]);
    expect(heuristic.totalTokens).toBe(37);
    expect(load(input).totalTokens).toBeGreaterThan(0);
  });
});

describe('fromDict: the reference from_dict semantics', () => {
  it('fromDictWithEffects reports what the boundary fix dropped on load', () => {
    const input = {
      max_messages: 5,
      messages: [
        { role: 'tool', content: 'orphan result', tool_call_id: 'c0' },
        { role: 'user', content: 'u' },
      ],
    };
    const result = fromDictWithEffects(input, { tokenizer: 'heuristic' });
    if (E.isLeft(result)) throw result.left;
    expect(contents(result.right.state.messages)).toEqual(['u']);
    expect(result.right.effects).toEqual([
      {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: [{ role: 'tool', content: 'orphan result', toolCallId: 'c0' }],
        positions: [0],
        rules: ['toolPairBoundary'],
        remaining: 1,
        removedTokens: 3,
        remainingTokens: 0,
        breakdown: { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 1, startOn: 0 },
      },
    ]);
    expect(fromDict(input, { tokenizer: 'heuristic' })).toEqual(E.right(result.right.state));
  });

  it('fixes the tool-pair boundary: [tool, tc, user] → [user]; a lone [tool] is kept', () => {
    const tc = {
      role: 'assistant',
      content: '',
      tool_calls: [{ name: 'f', parameters: {}, id: 'c1' }],
    };
    expect(
      contents(
        load({
          max_messages: 5,
          messages: [{ role: 'tool', content: 't' }, tc, { role: 'user', content: 'u' }],
        }).messages,
      ),
    ).toEqual(['u']);
    expect(
      contents(load({ max_messages: 5, messages: [{ role: 'tool', content: 't' }] }).messages),
    ).toEqual(['t']);
  });

  it('reads a missing content as "" and keeps an explicit null', () => {
    const state = load({
      max_messages: 5,
      messages: [{ role: 'user' }, { role: 'assistant', content: null }],
    });
    expect(state.messages).toEqual([
      { role: 'user', content: '' },
      { role: 'assistant', content: null },
    ]);
  });

  it('defaults max_tokens, messages and summary; ignores message_count and extra keys', () => {
    const state = load({
      max_messages: 3,
      message_count: 99,
      extra: true,
      messages: [{ role: 'user', content: 'x', who: 'me' }],
    });
    expect(state.config.maxTokens).toBeNull();
    expect(state.summary).toBeNull();
    expect(state.messages).toEqual([{ role: 'user', content: 'x' }]);
    expect(load({ max_messages: 3 }).messages).toEqual([]);
  });

  it('reads [] and null lists as none, and tool-call parameters default to {}', () => {
    const state = load({
      max_messages: 3,
      messages: [
        { role: 'assistant', content: 'a', tool_calls: [], content_parts: null },
        { role: 'assistant', content: 'b', tool_calls: [{ name: 'f' }] },
      ],
    });
    expect(state.messages).toEqual([
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: 'b', toolCalls: [{ name: 'f', parameters: {} }] },
    ]);
  });

  it('round-trips every field through JSON', () => {
    let state = createMemory({ maxMessages: 10, maxTokens: 1000, tokenizer: 'cl100k_base' });
    state = addMessages(state, [
      userMessage('Weather?'),
      assistantMessage(null, [
        {
          id: 'c1',
          name: 'w',
          parameters: { city: 'Paris', days: [1, 2], deep: { ok: true } },
          thoughtSignature: 's',
        },
      ]),
      toolMessage('18°C', { toolCallId: 'c1', toolName: 'w', toolResult: '{"c":18}' }),
      { role: 'user', content: 'img', imageBase64: 'AAAA' },
      imageMessage('https://example.com/cat.png'),
    ]).state;
    state = setSummary(state, 'Earlier: hello.').state;
    const restored = load(JSON.parse(JSON.stringify(toDict(state))));
    expect(restored).toEqual(state);
  });
});

describe('fromDict: validation (stricter than the reference)', () => {
  it('requires max_messages', () => {
    expect(problems({ messages: [] })).toEqual(['max_messages is required (an integer ≥ 1)']);
  });

  it('rejects invalid limits the reference accepts', () => {
    expect(problems({ max_messages: 0, max_tokens: 1.5 })).toEqual([
      'max_messages must be at least 1, received 0',
      'max_tokens must be an integer, received 1.5',
    ]);
  });

  it('names the path of a bad role, case-sensitively', () => {
    expect(
      problems({
        max_messages: 5,
        messages: [{ role: 'user' }, { role: 'user' }, { role: 'user' }, { role: 'USER' }],
      }),
    ).toEqual(['messages[3].role: expected "user" | "assistant" | "system" | "tool", got "USER"']);
  });

  it('reports a missing tool-call name and part type with their paths', () => {
    expect(
      problems({
        max_messages: 5,
        messages: [
          { role: 'assistant', tool_calls: [{ parameters: {} }], content_parts: [{ text: 'x' }] },
        ],
      }),
    ).toEqual([
      'messages[0].tool_calls[0].name: expected string, got undefined',
      'messages[0].content_parts[0].type: expected string, got undefined',
    ]);
  });

  it('reports wrong value types with the path', () => {
    expect(
      problems({ max_messages: 5, summary: 3, messages: [{ role: 'user', content: 7 }] }),
    ).toEqual([
      'messages[0].content: expected (string | null), got 7',
      'summary: expected (string | null), got 3',
    ]);
  });

  it.each([null, 'text', 42, []])('returns Left, never throws, for %o', (input) => {
    const result = fromDict(input);
    expect(E.isLeft(result) && result.left).toBeInstanceOf(MemoryDecodeError);
  });

  it('rejects an unknown tokenizer, naming where it came from', () => {
    expect(problems({ max_messages: 5, conversation_memory: { tokenizer: 'nope' } })).toEqual([
      'conversation_memory.tokenizer must be "o200k_base", "cl100k_base", "heuristic" or a name registered with registerTokenizer, received "nope"',
    ]);
    const result = fromDict({ max_messages: 5 }, { tokenizer: 'nope' });
    expect(E.isLeft(result) && result.left.problems[0]).toMatch(/^options\.tokenizer must be /);
  });

  it('names codecs briefly and lists at most 20 problems', () => {
    expect(problems({ max_messages: 5, messages: ['hi'] })).toEqual([
      'messages[0]: expected message object, got "hi"',
    ]);
    expect(
      problems({ max_messages: 5, messages: [{ role: 'assistant', tool_calls: [1] }] }),
    ).toEqual(['messages[0].tool_calls[0]: expected tool call object, got 1']);
    const many = fromDict({
      max_messages: 5,
      messages: Array.from({ length: 500 }, () => ({ role: 'USER' })),
    });
    if (!E.isLeft(many)) throw new Error('expected Left');
    // Only real problems are listed; the total is reported beside them and in the message.
    expect(many.left.problems).toHaveLength(20);
    expect(many.left.problems.every((line) => line.startsWith('messages['))).toBe(true);
    expect(many.left.problemCount).toBe(500);
    expect(many.left.countComplete).toBe(true);
    expect(many.left.message).toMatch(/\n {2}… and 480 more problems \(500 in all\)$/);
  });

  it('names a non-object input plainly', () => {
    expect(problems(null)).toEqual([
      '(root): expected an object as written by toDict or to_dict(), got null',
    ]);
    expect(problems([])).toEqual([
      '(root): expected an object as written by toDict or to_dict(), got an array of length 0',
    ]);
  });

  it('throws for invalid options: a programmer error, not bad input', () => {
    expect(() => fromDict({ max_messages: 5 }, null as never)).toThrow(MemoryArgumentError);
    expect(() => fromDict({ max_messages: 5 }, 'heuristic' as never)).toThrow(
      'fromDict: options must be an object such as { tokenizer }, received "heuristic"',
    );
  });

  it('tells bad data from a tokenizer that cannot count here', () => {
    const data = fromDict({ max_messages: 0 });
    expect(E.isLeft(data) && data.left.kind).toBe('data');
    const tokenizer = fromDict({ max_messages: 5 }, { tokenizer: 'not-registered' });
    expect(E.isLeft(tokenizer) && tokenizer.left.kind).toBe('tokenizer');
  });

  it('returns Left for input that throws while it is read', () => {
    const getter = { max_messages: 5 };
    Object.defineProperty(getter, 'messages', {
      enumerable: true,
      get: () => {
        throw new Error('no access');
      },
    });
    expect(problems(getter)).toEqual(['(root): could not read the input: Error: no access']);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(problems(proxy)[0]).toMatch(/^\(root\): /);
  });

  it('reports one line for non-object parameters, and reads null parameters as {}', () => {
    expect(
      problems({
        max_messages: 5,
        messages: [{ role: 'assistant', tool_calls: [{ name: 'f', parameters: [1] }] }],
      }),
    ).toEqual([
      'messages[0].tool_calls[0].parameters: expected a JSON object, got an array of length 1',
    ]);
    const state = load({
      max_messages: 5,
      messages: [{ role: 'assistant', tool_calls: [{ name: 'f', parameters: null }] }],
    });
    expect(state.messages[0]?.toolCalls?.[0]?.parameters).toEqual({});
  });

  it('returns Left when a custom tokenizer fails on a loaded message', () => {
    registerTokenizer('serialization-test-throws', (m) => {
      if (m.content === 'bad') throw new Error('boom');
      return 1;
    });
    registerTokenizer('serialization-test-negative', () => -1);
    registerTokenizer('serialization-test-odd-throw', () => {
      throw Object.create(null);
    });
    const input = {
      max_messages: 5,
      messages: [
        { role: 'user', content: 'ok' },
        { role: 'user', content: 'bad' },
      ],
    };
    const thrown = fromDict(input, { tokenizer: 'serialization-test-throws' });
    expect(E.isLeft(thrown) && thrown.left.problems).toEqual([
      'messages[1]: tokenizer "serialization-test-throws" threw Error: boom',
    ]);
    const odd = fromDict(input, { tokenizer: 'serialization-test-odd-throw' });
    expect(E.isLeft(odd) && odd.left.problems).toEqual([
      'messages[0]: tokenizer "serialization-test-odd-throw" threw an object',
    ]);
    const negative = fromDict(input, { tokenizer: 'serialization-test-negative' });
    expect(E.isLeft(negative) && negative.left.problems).toEqual([
      'messages[0]: tokenizer "serialization-test-negative" must return a non-negative integer, returned -1',
    ]);
  });

  it('keeps __proto__ and constructor keys as data and pollutes nothing', () => {
    const input = JSON.parse(
      '{"max_messages": 5, "__proto__": {"polluted": 1}, "messages": [{"role": "assistant", "content": "", "__proto__": {"polluted": 2},' +
        '"tool_calls": [{"name": "f", "parameters": {"__proto__": {"polluted": 3}, "constructor": {"prototype": {"polluted": 4}}}}]}]}',
    );
    const state = load(input);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    const parameters = state.messages[0]?.toolCalls?.[0]?.parameters ?? {};
    expect(Object.getPrototypeOf(parameters)).toBe(Object.prototype);
    expect(Object.keys(parameters)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(toDict(state))).messages[0].tool_calls[0].parameters).toEqual(
      JSON.parse('{"__proto__": {"polluted": 3}, "constructor": {"prototype": {"polluted": 4}}}'),
    );
    expect(Object.keys(state.messages[0] ?? {})).toEqual(['role', 'content', 'toolCalls']);
  });

  it('does not mutate its input', () => {
    const input = sample('memory-tools-summary.json');
    const snapshot = JSON.stringify(input);
    load(input);
    expect(JSON.stringify(input)).toBe(snapshot);
  });
});
