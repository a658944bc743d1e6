import { imageMessage, type Message } from 'conversation-memory';
import { describe, expect, it } from 'vitest';
import { fromAnthropic } from 'conversation-memory';
import { fromAnthropicReply } from 'conversation-memory';
import { toAnthropic } from 'conversation-memory';
import { imageMediaType } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';

const PNG = 'iVBORw0KGgoAAAANSUhEUg==';

/** The messages `fromAnthropic` reads, or the problems it reports. */
const read = (input: unknown): Message[] | readonly string[] => {
  const result = fromAnthropic(input);
  return result._tag === 'Right' ? result.right : result.left.problems;
};

describe('toAnthropic', () => {
  it('lifts system messages out, joined in order with a blank line', () => {
    expect(
      toAnthropic([
        system('Be brief.'),
        user('hi'),
        system(''),
        system('[Conversation Summary] s'),
      ]),
    ).toEqual({
      system: 'Be brief.\n\n[Conversation Summary] s',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(toAnthropic([user('hi')]).system).toBeUndefined();
    expect(toAnthropic([system('')]).system).toBeUndefined();
  });

  it('writes tool calls as tool_use blocks after the text', () => {
    const calls = [call('toolu_a', 'calc', { expr: '2+2' }), call('toolu_b', 'now')];
    expect(toAnthropic([assistant('Checking.', ...calls)]).messages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_a', name: 'calc', input: { expr: '2+2' } },
          { type: 'tool_use', id: 'toolu_b', name: 'now', input: {} },
        ],
      },
    ]);
    for (const content of [null, '']) {
      expect(
        toAnthropic([assistant(content, call('toolu_a', 'calc', { expr: '2+2' }))]).messages,
      ).toEqual([
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_a', name: 'calc', input: { expr: '2+2' } }],
        },
      ]);
    }
  });

  it('merges consecutive tool results, and the user message after them, into one user message', () => {
    const { messages } = toAnthropic([
      user('q'),
      assistant(null, call('a'), call('b')),
      tool('1', 'a'),
      system('lifted, so it does not split the results'),
      tool('2', 'b'),
      user('thanks'),
      user('and more'),
    ]);
    expect(messages.slice(2)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: '1' },
          { type: 'tool_result', tool_use_id: 'b', content: '2' },
          { type: 'text', text: 'thanks' },
        ],
      },
      { role: 'user', content: 'and more' },
    ]);
  });

  it('keeps apart what must not be merged', () => {
    // An empty user message after results stays a message of its own (never lost).
    expect(toAnthropic([tool('1', 'a'), user('')]).messages).toEqual([
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: '1' }] },
      { role: 'user', content: '' },
    ]);
    // A result after user text starts a new user message (results must come first).
    expect(toAnthropic([user('q'), tool('1', 'a')]).messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: '1' }] },
    ]);
  });

  it('writes images as image blocks', () => {
    expect(
      toAnthropic([imageMessage('https://example.com/cat.png', 'What is it?')]).messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is it?' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        ],
      },
    ]);
    const parts: Message = {
      role: 'user',
      content: 'ignored: the parts are sent instead',
      contentParts: [
        { type: 'image_base64', imageBase64: 'R0lGODlh', mediaType: 'image/gif' },
        { type: 'image_base64', imageBase64: PNG },
        { type: 'text', text: '' },
        { type: 'audio', text: 'no place for this' },
      ],
      imageBase64: '/9j/4AAQ',
    };
    expect(toAnthropic([parts]).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGODlh' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
        ],
      },
    ]);
    expect(
      toAnthropic([{ role: 'user', content: 'look', imageBase64: 'UklGRgAA' }]).messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRgAA' } },
        ],
      },
    ]);
  });

  it('sends tool results with images as blocks, and empty results as empty strings', () => {
    const withImage: Message = {
      role: 'tool',
      content: 'chart',
      toolCallId: 'a',
      contentParts: [
        { type: 'text', text: 'chart' },
        { type: 'image_url', imageUrl: 'https://example.com/c.png' },
      ],
    };
    expect(
      toAnthropic([withImage, { role: 'tool', content: null, toolCallId: 'b' }]).messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'a',
            content: [
              { type: 'text', text: 'chart' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/c.png' } },
            ],
          },
          { type: 'tool_result', tool_use_id: 'b', content: '' },
        ],
      },
    ]);
  });

  it('leaves out what has no place in the format, and invents no ids', () => {
    const messages: Message[] = [
      { role: 'user', content: 'q', toolCallId: 'x', toolCalls: [call('c')] },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ name: 'calc', parameters: {}, thoughtSignature: 'sig' }],
      },
      { role: 'tool', content: '4', toolName: 'calc', toolResult: '{"v":4}' },
      { role: 'assistant', content: null },
    ];
    expect(toAnthropic(messages).messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: '', name: 'calc', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: '', content: '4' }] },
      { role: 'assistant', content: '' },
    ]);
  });
});

describe('fromAnthropic', () => {
  it('splits a user message holding several tool results into one tool message each', () => {
    expect(
      read({
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Checking.' },
              { type: 'tool_use', id: 'a', name: 'calc', input: { expr: '2+2' } },
              { type: 'tool_use', id: 'b', name: 'now', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'a', content: '4', is_error: false },
              { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'noon' }] },
              { type: 'tool_result', tool_use_id: 'elsewhere' },
              { type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
      }),
    ).toEqual([
      system('Be brief.'),
      user('q'),
      assistant('Checking.', call('a', 'calc', { expr: '2+2' }), call('b', 'now')),
      { role: 'tool', content: '4', toolCallId: 'a', toolName: 'calc' },
      { role: 'tool', content: 'noon', toolCallId: 'b', toolName: 'now' },
      { role: 'tool', content: '', toolCallId: 'elsewhere' },
      user('thanks'),
    ]);
  });

  it('reads images and several blocks as content parts, system blocks as system messages', () => {
    expect(
      read({
        system: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is it?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
              { type: 'text', text: 'Be precise.' },
            ],
          },
          { role: 'assistant', content: [] },
        ],
      }),
    ).toEqual([
      system('one'),
      system('two'),
      {
        role: 'user',
        content: 'What is it? Be precise.',
        contentParts: [
          { type: 'text', text: 'What is it?' },
          { type: 'image_base64', imageBase64: PNG, mediaType: 'image/png' },
          { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
          { type: 'text', text: 'Be precise.' },
        ],
      },
      { role: 'assistant', content: '' },
    ]);
  });

  it('returns frozen messages and keeps __proto__ keys as plain data', () => {
    const input = JSON.parse(
      '{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{"__proto__":{"polluted":true}}}]}]}',
    ) as unknown;
    const messages = read(input) as Message[];
    const parameters = messages[1]?.toolCalls?.[0]?.parameters;
    expect(Object.keys(parameters ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.isFrozen(messages[1])).toBe(true);
    expect(Object.isFrozen(parameters)).toBe(true);
  });

  it('reports every problem with its path and value', () => {
    expect(
      read({
        messages: [
          { role: 'system', content: 'no' },
          {
            role: 'user',
            content: [
              { type: 'thinking', thinking: '' },
              { type: 'tool_use', id: 'a', name: 'f', input: {} },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: 'x' }] },
          { role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'a' }] },
          { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] },
          { role: 'user', content: 5 },
        ],
        system: 3,
      }),
    ).toEqual([
      'messages[0].role: expected "user" | "assistant", got "system"',
      'messages[1].content[0].type: expected "text" | "image" | "tool_result", got "thinking"',
      'messages[1].content[1].type: expected "text" | "image" | "tool_result", got "tool_use"',
      'messages[2].content[0].input: expected a JSON object, got "x"',
      'messages[3].content[0].type: expected "text" | "image" | "tool_use", got "tool_result"',
      'messages[4].content[0].source.type: expected "base64" | "url", got "file"',
      'messages[5].content: expected string or list of content blocks, got 5',
      'system: expected string or list of text blocks, got 3',
    ]);
    expect(read([])).toEqual([
      '(root): expected an object { system?, messages }, got an array of length 0',
    ]);
    expect(
      read({
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'a', name: 'f', input: { n: NaN } }],
          },
        ],
      }),
    ).toEqual(['messages[0].content[0].input: expected a JSON value, got NaN at n']);
  });

  it('reads own properties only, and never throws on hostile input', () => {
    expect(read(Object.create({ messages: [] }))).toEqual([
      '(root): expected an object { system?, messages }, got a Object',
    ]);
    const proto = Object.prototype as Record<string, unknown>;
    proto['messages'] = [{ role: 'user', content: 'inherited' }];
    try {
      expect(read({})).toEqual(['messages: expected list of messages, got undefined']);
    } finally {
      delete proto['messages'];
    }
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(read(trap)).toEqual(['(root): could not read the input: Error: trap']);
    const getter = {
      get messages(): never {
        throw new Error('boom');
      },
    };
    expect(read(getter)).toEqual(['(root): could not read the input: Error: boom']);
  });

  it('stays bounded on huge hostile input', () => {
    const started = performance.now();
    const result = fromAnthropic({ messages: new Array(2 ** 32 - 1) });
    expect(result._tag).toBe('Left');
    if (result._tag === 'Left') {
      expect(result.left.countComplete).toBe(false);
      expect(result.left.problems[0]).toBe('messages[0]: expected message object, got undefined');
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('fromAnthropicReply and imageMediaType', () => {
  it('never throws on a reply whose reading throws', () => {
    const reply = {
      type: 'message',
      role: 'assistant',
      get content(): never {
        throw new Error('boom');
      },
    };
    const result = fromAnthropicReply(reply);
    expect(result._tag === 'Left' && result.left.detail).toBe(
      'the reply is not a valid Anthropic message: (root): could not read the reply: Error: boom',
    );
  });

  it('reads the media type from the first bytes', () => {
    expect([PNG, '/9j/4AAQ', 'R0lGODlh', 'UklGRgAA', 'AAAA'].map(imageMediaType)).toEqual([
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/jpeg',
    ]);
  });
});
