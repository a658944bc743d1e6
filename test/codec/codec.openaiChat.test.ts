/**
 * `fromOpenAIChat`: Chat Completions messages read into our shape, and bad input reported with
 * its path and value (never a throw).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryDecodeError, type Message } from 'conversation-memory';
import { fromOpenAIChat } from 'conversation-memory';
import { toOpenAIChat } from 'conversation-memory';
import { hostilityArb, jsonNodes, makeHostile, replaceAt } from '../arbitraries/hostile';
import { openaiChatConversationArb } from '../arbitraries/openaiChat';
import { assistant, call, system, user } from '../helpers';
import { wireCall } from '../support/openaiHarness';

const problems = (input: unknown): readonly string[] => {
  const result = fromOpenAIChat(input);
  if (result._tag === 'Right') throw new Error('expected a Left');
  expect(result.left).toBeInstanceOf(MemoryDecodeError);
  return result.left.problems;
};

const decode = (input: unknown): Message[] => {
  const result = fromOpenAIChat(input);
  if (result._tag === 'Left') throw result.left;
  return result.right;
};

describe('fromOpenAIChat', () => {
  it('reads a conversation and restores each tool name from the call its result answers', () => {
    expect(
      decode([
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: '2+2?', name: 'ada' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [wireCall('c1', 'calc', '{"expr":"2+2"}')],
        },
        { role: 'tool', tool_call_id: 'c1', content: '4' },
        { role: 'tool', tool_call_id: 'c7', content: 'orphan' },
        { role: 'user', content: 'and?' },
        { role: 'tool', tool_call_id: 'c1', content: 'after the turn' },
      ]),
    ).toEqual([
      system('Be brief.'),
      user('2+2?'),
      assistant(null, call('c1', 'calc', { expr: '2+2' })),
      { role: 'tool', content: '4', toolCallId: 'c1', toolName: 'calc' },
      { role: 'tool', content: 'orphan', toolCallId: 'c7' },
      user('and?'),
      { role: 'tool', content: 'after the turn', toolCallId: 'c1' },
    ]);
  });

  it('reads content parts, data URLs as base64 images, refusals as text', () => {
    expect(
      decode([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What' },
            { type: 'text', text: '' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'text', text: 'is it?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] },
        { role: 'assistant', content: null, refusal: 'No.' },
        { role: 'assistant', content: [] },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: 'What is it?',
        contentParts: [
          { type: 'text', text: 'What' },
          { type: 'text', text: '' },
          { type: 'image_base64', imageBase64: 'iVBO', mediaType: 'image/png' },
          { type: 'image_url', imageUrl: 'https://example.com/a.png' },
          { type: 'text', text: 'is it?' },
        ],
      },
      {
        role: 'assistant',
        content: 'I cannot.',
        contentParts: [{ type: 'text', text: 'I cannot.' }],
      },
      { role: 'assistant', content: 'No.' },
      { role: 'assistant', content: '' },
    ]);
  });

  it("reads '' arguments as {} and keeps __proto__ keys as plain data", () => {
    const [message] = decode([
      {
        role: 'assistant',
        content: null,
        tool_calls: [wireCall('a', 'f', ''), wireCall('b', 'g', '{"__proto__":{"polluted":true}}')],
      },
    ]);
    expect(message?.toolCalls?.[0]?.parameters).toEqual({});
    const params = message?.toolCalls?.[1]?.parameters ?? {};
    expect(Object.keys(params)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.isFrozen(message)).toBe(true);
  });

  it('reports every problem with its path and the value found', () => {
    expect(
      problems([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [wireCall('c1', 'f', '{oops')] },
        { role: 'tool', content: 4 },
        { role: 'USER', content: 'x' },
        { role: 'user', content: [{ type: 'input_audio', input_audio: {} }] },
        { role: 'system', content: null },
        { role: 'assistant', content: 'x', tool_calls: [{ id: 'c', type: 'custom', custom: {} }] },
        { role: 'user', content: 'x', tool_calls: [wireCall('c')] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [wireCall('d', 'f', '[1,2]')],
          function_call: { name: 'f' },
        },
        'not a message',
      ]),
    ).toEqual([
      '[1].tool_calls[0].function.arguments: expected a JSON object string, got "{oops"',
      '[2].content: expected string or list of content parts, got 4',
      '[2].tool_call_id: expected a string (the id of the call this result answers), got undefined',
      '[3].role: expected "system" | "developer" | "user" | "assistant" | "tool", got "USER"',
      '[4].content[0].type: expected "text" | "image_url", got "input_audio"',
      '[5].content: expected string or list of content parts, got null',
      '[6].tool_calls[0].type: expected "function", got "custom"',
      '[6].tool_calls[0].function: expected function object, got undefined',
      '[7].tool_calls: only assistant messages have tool calls, got an array of length 1',
      '[8].tool_calls[0].function.arguments: expected a JSON object string, got "[1,2]"',
      '[8].function_call: the deprecated function_call is not read: send tool_calls instead, got an object',
      '[9]: expected message object, got "not a message"',
    ]);
  });

  it('rejects what is not a list, and stops inspecting a huge bad list after 1,000 problems', () => {
    expect(problems({ messages: [] })).toEqual([
      '(root): expected a list of Chat Completions messages, got an object',
    ]);
    const result = fromOpenAIChat(new Array(2 ** 32 - 1));
    expect(result._tag).toBe('Left');
    if (result._tag === 'Left') {
      expect(result.left.countComplete).toBe(false);
      expect(result.left.problemCount).toBe(1000);
    }
  });

  it('never throws on hostile input (getters and Proxy traps that throw, revoked Proxies)', () => {
    fc.assert(
      fc.property(
        openaiChatConversationArb
          .filter((m) => m.length > 0)
          .chain((messages) => {
            const wire = JSON.parse(JSON.stringify(toOpenAIChat(messages))) as unknown;
            const nodes = jsonNodes(wire);
            return fc.tuple(
              fc.constant(wire),
              fc
                .constantFrom(...nodes)
                .chain((node) =>
                  fc.tuple(fc.constant(node), hostilityArb(Object.keys(node.value))),
                ),
            );
          }),
        ([wire, [node, hostility]]) => {
          const input = replaceAt(wire, node.path, (n) => makeHostile(n, hostility));
          const result = fromOpenAIChat(input);
          if (result._tag === 'Left') {
            expect(result.left).toBeInstanceOf(MemoryDecodeError);
            // Thrown text is escaped: no forged log line, no terminal escape.
            expect(result.left.message).not.toMatch(/\n\[ERROR\]/);
            expect(result.left.message).not.toContain('\u001b');
          }
        },
      ),
    );
  });
});
