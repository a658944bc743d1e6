/**
 * `toOpenAIChat`: what each field of our messages becomes on the Chat Completions wire, and what
 * OpenAI has no place for.
 */
import { describe, expect, it } from 'vitest';
import { InvalidMessageError, type Message } from 'conversation-memory';
import { toOpenAIChat } from 'conversation-memory';
import { assistant, call, system, tool, user } from '../helpers';
import { wireCall } from '../support/openaiHarness';

describe('toOpenAIChat', () => {
  it('writes each role, tool calls with JSON arguments, and tool results with their call id', () => {
    const messages: Message[] = [
      system('Be brief.'),
      user('2+2?'),
      assistant(null, call('c1', 'calc', { expr: '2+2' }), call('c2', 'log')),
      tool('4', 'c1'),
      tool('ok', 'c2'),
      assistant('4'),
    ];
    expect(toOpenAIChat(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: '2+2?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [wireCall('c1', 'calc', '{"expr":"2+2"}'), wireCall('c2', 'log')],
      },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
      { role: 'assistant', content: '4' },
    ]);
  });

  it("sends null content as '' except beside tool calls, and '' beside tool calls as null", () => {
    expect(
      toOpenAIChat([
        { role: 'user', content: null },
        { role: 'assistant', content: null },
        { role: 'assistant', content: '', toolCalls: [call('c1')] },
        { role: 'assistant', content: 'Let me check.', toolCalls: [call('c2')] },
        { role: 'tool', content: null, toolCallId: 'c2' },
      ]).map((m) => m.content),
    ).toEqual(['', '', null, 'Let me check.', '']);
  });

  it('leaves out what OpenAI has no place for: thoughtSignature, toolName, toolResult, misplaced ids and calls', () => {
    expect(
      toOpenAIChat([
        {
          role: 'assistant',
          content: null,
          toolCallId: 'x',
          toolCalls: [{ id: 'c1', name: 'f', parameters: { a: 1 }, thoughtSignature: 'sig' }],
        },
        { role: 'tool', content: '1', toolCallId: 'c1', toolName: 'f', toolResult: '{"v":1}' },
        { role: 'user', content: 'hi', toolCalls: [call('c9')], toolCallId: 'c9' },
      ]),
    ).toEqual([
      { role: 'assistant', content: null, tool_calls: [wireCall('c1', 'f', '{"a":1}')] },
      { role: 'tool', tool_call_id: 'c1', content: '1' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('writes a tool call or result without an id without one (the API refuses it)', () => {
    expect(
      toOpenAIChat([
        { role: 'assistant', content: null, toolCalls: [{ name: 'f', parameters: {} }] },
        { role: 'tool', content: 'r' },
      ]),
    ).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', content: 'r' },
    ]);
  });

  it('sends content parts instead of content: images on user messages, as data URLs for base64 (image/jpeg by default)', () => {
    const parts = [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', imageUrl: 'https://example.com/cat.png' },
      { type: 'image_base64', imageBase64: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'image_base64', imageBase64: 'AAAA' },
      { type: 'audio', text: 'unknown type' },
      { type: 'image_url' },
    ];
    expect(toOpenAIChat([{ role: 'user', content: 'ignored', contentParts: parts }])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
        ],
      },
    ]);
  });

  it('keeps only text parts on other roles, and falls back to content when no part is left', () => {
    const image = { type: 'image_url', imageUrl: 'https://example.com/cat.png' };
    expect(
      toOpenAIChat([
        { role: 'system', content: 's', contentParts: [{ type: 'text', text: 'a' }, image] },
        { role: 'assistant', content: 'only an image', contentParts: [image] },
        { role: 'user', content: 'nothing usable', contentParts: [{ type: 'video' }] },
      ]),
    ).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'a' }] },
      { role: 'assistant', content: 'only an image' },
      { role: 'user', content: 'nothing usable' },
    ]);
  });

  it('sends imageBase64 on a user message as an image part after the text', () => {
    expect(
      toOpenAIChat([
        { role: 'user', content: 'Describe.', imageBase64: 'AAAA' },
        { role: 'user', content: '', imageBase64: 'BBBB' },
        { role: 'assistant', content: 'no images here', imageBase64: 'CCCC' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe.' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,BBBB' } }],
      },
      { role: 'assistant', content: 'no images here' },
    ]);
  });

  it('validates its input like addMessage, naming the index, and never changes it', () => {
    expect(() => toOpenAIChat([user('ok'), { role: 'USER', content: 'x' } as never])).toThrow(
      InvalidMessageError,
    );
    expect(() => toOpenAIChat([user('ok'), { role: 'USER', content: 'x' } as never])).toThrow(
      'messages[1].role must be one of',
    );
    expect(() => toOpenAIChat('hi' as never)).toThrow('messages must be an array, received "hi"');
    const frozen = Object.freeze([Object.freeze(user('hi'))]);
    expect(toOpenAIChat(frozen)).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
