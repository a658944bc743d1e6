/**
 * `fromUIMessages` / `toUIMessages` (issue #31 §1) against the real `ai` package: each part kind
 * and state, errors that name the path and the value, the round trip as a property over UI
 * messages `validateUIMessages` accepts, and the model messages valid for OpenAI and Anthropic
 * after `modelView`, reasoning never sent.
 */
import fc from 'fast-check';
import { validateUIMessages, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  modelView,
  PROVIDER_SAFE,
  validateTranscript,
  type Message,
} from 'conversation-memory';
import { fromUIMessages, toUIMessages } from 'conversation-memory/ai-sdk';
import { REASONING_MARKER, uiConversationArb } from '../../arbitraries/uiMessages';

const right = (value: unknown): Message[] => {
  const result = fromUIMessages(value);
  if (result._tag === 'Left') throw result.left;
  return result.right;
};

const problemsOf = (value: unknown): readonly string[] => {
  const result = fromUIMessages(value);
  if (result._tag === 'Right') throw new Error('expected a Left');
  return result.left.problems;
};

const user = (parts: unknown[]): unknown => ({ id: 'u1', role: 'user', parts });
const assistant = (parts: unknown[]): unknown => ({ id: 'a1', role: 'assistant', parts });

describe('fromUIMessages', () => {
  it('text parts are the text; an image file an image part; other files and extras stay in metadata', () => {
    const [message] = right([
      user([
        { type: 'text', text: 'look: ' },
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0K' },
        { type: 'file', mediaType: 'application/pdf', url: 'https://x.test/a.pdf' },
        { type: 'text', text: 'what is it?' },
        { type: 'data-weather', data: { city: 'Rome' } },
      ]),
    ]);
    expect(message).toMatchObject({
      role: 'user',
      id: 'u1',
      content: 'look: what is it?',
      contentParts: [
        { type: 'text', text: 'look: ' },
        { type: 'image_base64', imageBase64: 'iVBORw0K', mediaType: 'image/png' },
        { type: 'text', text: 'what is it?' },
      ],
    });
    expect(JSON.stringify(message?.contentParts)).not.toContain('pdf');
    const [url] = right([
      user([{ type: 'file', mediaType: 'image/jpeg', url: 'https://x.test/c.jpg' }]),
    ]);
    expect(url?.contentParts).toEqual([
      { type: 'image_url', imageUrl: 'https://x.test/c.jpg', mediaType: 'image/jpeg' },
    ]);
  });

  it('an assistant message becomes its steps: text and calls, then one result per answered call', () => {
    const messages = right([
      assistant([
        { type: 'step-start' },
        { type: 'reasoning', text: REASONING_MARKER },
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool-get_time',
          toolCallId: 'c1',
          state: 'output-available',
          input: { city: 'Oslo' },
          output: 'noon',
        },
        {
          type: 'tool-search',
          toolCallId: 'c2',
          state: 'output-error',
          input: { q: 'x' },
          errorText: 'down',
        },
        {
          type: 'dynamic-tool',
          toolName: 'calc',
          toolCallId: 'c3',
          state: 'output-available',
          input: {},
          output: { n: 4 },
        },
        { type: 'step-start' },
        {
          type: 'tool-get_time',
          toolCallId: 'c4',
          state: 'input-available',
          input: { city: 'Rome' },
        },
        { type: 'step-start' },
        { type: 'text', text: 'Done.' },
      ]),
    ]);
    expect(
      messages.map((m) => [m.role, m.id, m.content, m.toolCalls?.map((c) => c.id), m.toolCallId]),
    ).toEqual([
      ['assistant', 'a1', 'Let me check.', ['c1', 'c2', 'c3'], undefined],
      ['tool', 'a1', 'noon', undefined, 'c1'],
      ['tool', 'a1', 'down', undefined, 'c2'],
      ['tool', 'a1', '{"n":4}', undefined, 'c3'],
      ['assistant', 'a1', null, ['c4'], undefined],
      ['assistant', 'a1', 'Done.', undefined, undefined],
    ]);
    expect(messages[2]?.metadata?.['isError']).toBe(true);
    expect(messages[3]?.toolName).toBe('calc');
    expect(JSON.stringify(messages.map((m) => [m.content, m.contentParts]))).not.toContain(
      REASONING_MARKER,
    );
  });

  it.each([
    [
      'a tool call still streaming its input',
      [assistant([{ type: 'tool-x', toolCallId: 'c', state: 'input-streaming', input: {} }])],
      'messages[0].parts[0].state: the tool call is incomplete (still streaming its input), got "input-streaming"',
    ],
    [
      'a tool call waiting for an approval',
      [assistant([{ type: 'tool-x', toolCallId: 'c', state: 'approval-requested', input: {} }])],
      'messages[0].parts[0].state: expected input-available',
    ],
    [
      'an input that is not an object',
      [assistant([{ type: 'tool-x', toolCallId: 'c', state: 'input-available', input: 'oops' }])],
      'messages[0].parts[0].input: expected a JSON object (the arguments of the call), got "oops"',
    ],
    [
      'a tool part in a user message',
      [user([{ type: 'tool-x', toolCallId: 'c', state: 'input-available', input: {} }])],
      'messages[0].parts[0].type: a tool part belongs to an assistant message',
    ],
    [
      'an unknown part',
      [user([{ type: 'video', url: 'x' }])],
      'messages[0].parts[0].type: expected a UI message part type, got "video"',
    ],
    [
      'a role',
      [{ id: 'x', role: 'tool', parts: [] }],
      "messages[0].role: expected 'user', 'assistant' or 'system', got \"tool\"",
    ],
    ['an id', [{ id: '', role: 'user', parts: [] }], 'messages[0].id: expected a non-empty string'],
    ['parts', [{ id: 'x', role: 'user', parts: 'hi' }], 'messages[0].parts: expected an array'],
    [
      'a text',
      [user([{ type: 'text', text: 5 }])],
      'messages[0].parts[0].text: expected a string, got 5',
    ],
    [
      'metadata that is not JSON',
      [{ id: 'x', role: 'user', parts: [], metadata: { f: () => 1 } }],
      'messages[0].metadata: expected JSON',
    ],
    ['a list', { id: 'x' }, 'messages: expected an array'],
  ])('refuses %s, naming the path and the value', (_what, input, problem) => {
    expect(problemsOf(input).join('\n')).toContain(problem);
  });

  it('never throws on hostile values, and reports every message that is wrong', () => {
    fc.assert(
      fc.property(fc.array(fc.anything(), { maxLength: 5 }), (values) => {
        const result = fromUIMessages(values);
        if (result._tag === 'Left') expect(result.left.problems.length).toBeGreaterThan(0);
      }),
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(() => fromUIMessages([revoked.proxy])).not.toThrow();
  });
});

describe('toUIMessages', () => {
  it('gives the memory’s own messages as the AI SDK streams them, one UI message per reply', () => {
    const ui = toUIMessages([
      { role: 'user', content: 'time?' },
      {
        role: 'assistant',
        content: null,
        id: 'r1',
        toolCalls: [{ id: 'c1', name: 'get_time', parameters: { city: 'Oslo' } }],
      },
      { role: 'tool', content: 'noon', id: 'r1', toolCallId: 'c1', toolName: 'get_time' },
      { role: 'assistant', content: 'It is noon.', id: 'r1' },
      { role: 'assistant', content: 'Still here', metadata: { interrupted: true } },
    ]);
    expect(ui).toEqual([
      { id: 'msg-0', role: 'user', parts: [{ type: 'text', text: 'time?' }] },
      {
        id: 'r1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-get_time',
            toolCallId: 'c1',
            state: 'output-available',
            input: { city: 'Oslo' },
            output: 'noon',
          },
          { type: 'step-start' },
          { type: 'text', text: 'It is noon.', state: 'done' },
        ],
      },
      {
        id: 'msg-4',
        role: 'assistant',
        metadata: { interrupted: true },
        parts: [{ type: 'step-start' }, { type: 'text', text: 'Still here', state: 'done' }],
      },
    ]);
  });
});

describe('the round trip', () => {
  it('toUIMessages(fromUIMessages(x)) is x for every conversation validateUIMessages accepts', async () => {
    await fc.assert(
      fc.asyncProperty(uiConversationArb, async (conversation) => {
        const valid = await validateUIMessages({ messages: conversation });
        expect(toUIMessages(right(valid))).toEqual(valid);
      }),
      { numRuns: 150 },
    );
  });

  it('the model messages are valid for OpenAI and Anthropic after modelView, and never carry reasoning', async () => {
    await fc.assert(
      fc.asyncProperty(uiConversationArb, async (conversation) => {
        const valid: UIMessage[] = await validateUIMessages({ messages: conversation });
        const state = addMessages(
          createMemory({ ...PROVIDER_SAFE, tokenizer: 'heuristic' }),
          right(valid),
        ).state;
        for (const target of ['openai', 'anthropic'] as const) {
          const view = modelView(state, { target });
          expect(validateTranscript(view.messages, target)).toEqual([]);
          const sent = JSON.stringify(
            view.messages.map((m) => [m.content, m.contentParts, m.toolCalls]),
          );
          expect(sent).not.toContain(REASONING_MARKER);
        }
      }),
      { numRuns: 100 },
    );
  });
});
