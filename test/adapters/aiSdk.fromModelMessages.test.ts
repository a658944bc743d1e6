import type { ModelMessage } from 'ai';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { fromModelMessages } from 'conversation-memory/ai-sdk';
import { system, user } from '../helpers';

const right = (input: unknown): Message[] => {
  const result = fromModelMessages(input);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};

const problems = (input: unknown): readonly string[] => {
  const result = fromModelMessages(input);
  if (E.isRight(result)) throw new Error('expected a decode failure');
  expect(result.left.code).toBe('CM_DECODE');
  return result.left.problems;
};

describe('fromModelMessages', () => {
  it('reads each role; several tool results become several tool messages', () => {
    const input: ModelMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking…' },
          { type: 'text', text: 'Let me ' },
          { type: 'text', text: 'check.' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'calc', input: { x: [1, { y: null }] } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'calc', input: {} },
        ],
        providerOptions: { openai: { reasoningEffort: 'low' } },
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'calc',
            output: { type: 'json', value: { n: 4 } },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: '',
            output: { type: 'error-text', value: 'boom' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: { type: 'execution-denied' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'd', toolName: 't', input: {} }],
      },
    ];
    expect(right(input)).toEqual([
      system('s'),
      user('q'),
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [
          { id: 'a', name: 'calc', parameters: { x: [1, { y: null }] } },
          { id: 'b', name: 'calc', parameters: {} },
        ],
      },
      { role: 'tool', content: '{"n":4}', toolCallId: 'a', toolName: 'calc' },
      { role: 'tool', content: 'boom', toolCallId: 'b' },
      { role: 'tool', content: 'Tool execution denied.', toolCallId: 'c', toolName: 't' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'd', name: 't', parameters: {} }] },
    ]);
  });

  it('reads images given as URL strings, URL objects, data URLs, base64, bytes and image files', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253]);
    const input: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'image', image: 'https://example.com/a.png' },
          { type: 'image', image: new URL('https://example.com/b.png'), mediaType: 'image/png' },
          { type: 'image', image: 'data:image/webp;base64,UklGRg==' },
          { type: 'image', image: 'iVBORw0KGgo=' },
          { type: 'image', image: bytes },
          { type: 'file', data: bytes.buffer, mediaType: 'image/gif' },
        ],
      },
    ];
    const [message] = right(input);
    expect(message).toEqual({
      role: 'user',
      content: 'a\nb',
      contentParts: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'image_url', imageUrl: 'https://example.com/a.png' },
        { type: 'image_url', imageUrl: 'https://example.com/b.png', mediaType: 'image/png' },
        { type: 'image_base64', imageBase64: 'UklGRg==', mediaType: 'image/webp' },
        { type: 'image_base64', imageBase64: 'iVBORw0KGgo=' },
        { type: 'image_base64', imageBase64: Buffer.from(bytes).toString('base64') },
        {
          type: 'image_base64',
          imageBase64: Buffer.from(bytes).toString('base64'),
          mediaType: 'image/gif',
        },
      ],
    });
    for (const length of [0, 1, 2, 3, 4, 5]) {
      const data = new Uint8Array(Array.from({ length }, (_, i) => 255 - i * 37));
      const [read] = right([{ role: 'user', content: [{ type: 'image', image: data }] }]);
      expect(read?.contentParts?.[0]?.imageBase64).toBe(Buffer.from(data).toString('base64'));
    }
  });

  it('reports every problem with its path, and never throws', () => {
    expect(problems('nope')).toEqual(['messages: expected list of model messages, got "nope"']);
    expect(
      problems([
        { role: 'USER', content: 'x' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: '{oops' }],
        },
        { role: 'user', content: [{ type: 'file', data: 'AAAA', mediaType: 'application/pdf' }] },
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: 'x', approved: true }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'a',
              toolName: 't',
              output: { type: 'json', value: { d: new Date(0) } },
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'file', data: 'AAAA', mediaType: 'image/png' }] },
      ]),
    ).toEqual([
      'messages[0].role: expected "system" | "user" | "assistant" | "tool", got "USER"',
      'messages[1].content[0].input: expected a JSON object, got "{oops"',
      'messages[2].content[0].mediaType must be an image media type ("image/…"; other files are not kept), received "application/pdf"',
      'messages[3].content[0].type: expected "tool-result", got "tool-approval-response"',
      'messages[4].content[0].output.value: expected a JSON value, got a Date at d',
      'messages[5].content[0].type: expected "text" | "reasoning" | "tool-call", got "file"',
    ]);
  });

  it('reads own properties once each; __proto__ stays data; a throwing Proxy is a problem', () => {
    let reads = 0;
    const message = {
      get role() {
        reads++;
        return reads === 1 ? 'user' : 'assistant';
      },
      content: 'hi',
    };
    expect(right([message])).toEqual([user('hi')]);
    expect(reads).toBe(1);
    const inherited = Object.create({ role: 'user', content: 'x' }) as object;
    expect(problems([inherited])[0]).toMatch(/^messages\[0\]: expected model message/);
    const polluting = JSON.parse(
      '[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"a","toolName":"t","input":{"__proto__":{"polluted":true}}}]}]',
    ) as unknown;
    const [read] = right(polluting);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(read?.toolCalls?.[0]?.parameters ?? {})).toEqual(['__proto__']);
    const trap = new Proxy([], {
      get() {
        throw new Error('trap');
      },
    });
    expect(problems(trap)).toEqual(['messages: could not read the input: Error: trap']);
  });

  it('stops inspecting after 1000 failing items', () => {
    const result = fromModelMessages(Array.from({ length: 5000 }, () => ({ role: 'x' })));
    expect(E.isLeft(result) && result.left.countComplete).toBe(false);
  });
});
