import { modelMessageSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { imageMessage, type Message } from 'conversation-memory';
import { toModelMessages } from 'conversation-memory/ai-sdk';
import { assistant, call, system, tool, user } from '../helpers';

describe('toModelMessages', () => {
  it('converts each role as the AI SDK 6 expects (checked with its own schema)', () => {
    const messages = [
      system('Be brief.'),
      user('2+2 and 3+3?'),
      assistant('Let me add.', call('c1', 'calc', { expr: '2+2' }), call('c2', 'calc')),
      tool('4', 'c1'),
      { role: 'tool', content: '6', toolCallId: 'c2' } satisfies Message,
      assistant(null, call('c3')),
      assistant('4 and 6.'),
    ];
    const converted = toModelMessages(messages);
    expect(converted).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: '2+2 and 3+3?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me add.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'calc', input: { expr: '2+2' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'calc', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'calc',
            output: { type: 'text', value: '4' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: '',
            output: { type: 'text', value: '6' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c3', toolName: 'calc', input: {} }],
      },
      { role: 'assistant', content: '4 and 6.' },
    ]);
    for (const message of converted)
      expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });

  it('sends content parts and images as parts', () => {
    const url = imageMessage('https://example.com/cat.png', 'What is this?');
    const b64 = imageMessage({ base64: 'iVBORw0KGgo=', mediaType: 'image/png' });
    const legacy: Message = { role: 'user', content: 'See', imageBase64: 'AAAA' };
    const converted = toModelMessages([url, b64, legacy]);
    expect(converted).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image: 'https://example.com/cat.png' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe this image.' },
          { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'See' },
          { type: 'image', image: 'AAAA' },
        ],
      },
    ]);
    for (const message of converted)
      expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });

  it('throws MemoryArgumentError for what has no AI SDK form, naming the path', () => {
    const noId: Message = {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'calc', parameters: {} }],
    };
    expect(() => toModelMessages([user('q'), noId])).toThrow(
      /toModelMessages: messages\[1\]\.toolCalls\[0\] has no id/,
    );
    const noCallId: Message = { role: 'tool', content: '4' };
    expect(() => toModelMessages([noCallId])).toThrow(
      /messages\[0\] is a tool result without toolCallId/,
    );
    const emptyPart: Message = { role: 'user', content: '', contentParts: [{ type: 'image_url' }] };
    expect(() => toModelMessages([emptyPart])).toThrow(
      /messages\[0\]\.contentParts\[0\]: a part of type "image_url"/,
    );
    const picture: Message = {
      role: 'assistant',
      content: '',
      contentParts: [{ type: 'image_url', imageUrl: 'https://example.com/a.png' }],
    };
    expect(() => toModelMessages([picture])).toThrow(/an assistant part must be text/);
  });
});
