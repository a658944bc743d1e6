import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  appendAction,
  createEventLog,
  createMemory,
  decodeAction,
  decodeEnvelope,
  decodeState,
  encodeEnvelope,
  fromDict,
  InvalidMessageError,
  logActions,
  type Message,
  memoryActions,
  messageToDict,
  replay,
  toAnthropic,
  toDict,
  toOpenAIChat,
} from 'conversation-memory';
import { BUILT_IN_TOKENIZERS, countMessageTokens, loadTokenizer } from 'conversation-memory/tokens';
import { toModelMessages } from 'conversation-memory/ai-sdk';
import { applicationIdArb, messageArb, metadataArb } from '../arbitraries/message';

/**
 * The application's own fields on a message (issue #7, section 5): `id` (its database row, the
 * AI SDK's UI message id) and `metadata` (a plain JSON object). Validated on entry, kept as given,
 * never counted, never sent to a model, written by `toDict` after the reference's eight keys and
 * only when present.
 */

const withFields: Message = {
  role: 'user',
  content: 'What is the weather in Paris?',
  id: 'msg_01J9',
  metadata: { sentAt: 1764499200, feedback: null, tags: ['weather'], model: { name: 'gpt-4o' } },
};

const admit = (message: unknown): Message =>
  addMessage(createMemory({ tokenizer: 'heuristic' }), message as Message).state
    .messages[0] as Message;

const rejection = (message: unknown): string => {
  try {
    admit(message);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidMessageError);
    return (error as Error).message;
  }
  throw new Error('expected the message to be rejected');
};

describe('message id and metadata: entry', () => {
  it('keeps them as given, deep-copied and frozen; the caller’s object is untouched', () => {
    const input = structuredClone(withFields) as unknown as { metadata: { tags: string[] } };
    const stored = admit(input);
    expect(stored).toEqual(withFields);
    expect(stored.metadata).not.toBe(input.metadata);
    expect(Object.isFrozen(stored.metadata)).toBe(true);
    expect(Object.isFrozen(stored.metadata?.['tags'])).toBe(true);
    input.metadata.tags.push('changed later');
    expect(stored.metadata?.['tags']).toEqual(['weather']);
    expect(input).toEqual({
      ...withFields,
      metadata: { ...withFields.metadata, tags: ['weather', 'changed later'] },
    });
  });

  it('reads undefined and null as absent, like the other optional fields', () => {
    expect(admit({ role: 'user', content: 'hi', id: undefined, metadata: null })).toEqual({
      role: 'user',
      content: 'hi',
    });
    expect(Object.keys(admit({ role: 'user', content: 'hi', id: null }))).toEqual([
      'role',
      'content',
    ]);
  });

  it('rejects a bad id or metadata by path and value, and the state is not changed', () => {
    expect(rejection({ role: 'user', content: 'x', id: '' })).toContain(
      'message.id must be a non-empty string, received ""',
    );
    expect(rejection({ role: 'user', content: 'x', id: 42 })).toContain(
      'message.id must be a non-empty string, received 42',
    );
    expect(rejection({ role: 'user', content: 'x', metadata: 'draft' })).toContain(
      'message.metadata: expected a JSON object, got "draft"',
    );
    expect(rejection({ role: 'user', content: 'x', metadata: [1] })).toContain(
      'message.metadata: expected a JSON object',
    );
    expect(rejection({ role: 'user', content: 'x', metadata: { at: new Date(0) } })).toContain(
      'message.metadata.at: expected a JSON value, got a Date',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(rejection({ role: 'user', content: 'x', metadata: cyclic })).toContain(
      'circular reference',
    );

    const before = addMessage(createMemory({ tokenizer: 'heuristic' }), {
      role: 'user',
      content: 'a',
    }).state;
    expect(() =>
      addMessages(before, [
        { role: 'user', content: 'b', id: 'ok' },
        { role: 'user', content: 'c', metadata: { n: Number.NaN } },
      ]),
    ).toThrow('messages[1].metadata.n: expected a JSON value, got NaN');
    expect(before.messages).toHaveLength(1);
  });

  it('keeps a __proto__ key of metadata as data, polluting nothing', () => {
    const stored = admit(
      JSON.parse('{"role":"user","content":"x","metadata":{"__proto__":{"admin":true}}}'),
    );
    expect(Object.getPrototypeOf(stored.metadata)).toBe(Object.prototype);
    expect(Object.hasOwn(stored.metadata ?? {}, '__proto__')).toBe(true);
    expect((stored.metadata as { admin?: unknown }).admin).toBeUndefined();
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
  });

  it('never counts them as tokens, with every built-in tokenizer', async () => {
    for (const name of BUILT_IN_TOKENIZERS) await loadTokenizer(name);
    fc.assert(
      fc.property(messageArb, applicationIdArb, metadataArb, (message, id, metadata) => {
        const plain: Message = { ...message };
        delete (plain as { id?: string }).id;
        delete (plain as { metadata?: unknown }).metadata;
        for (const name of BUILT_IN_TOKENIZERS) {
          expect(countMessageTokens(name, { ...plain, id, metadata })).toBe(
            countMessageTokens(name, plain),
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('message id and metadata: persistence', () => {
  it('toDict writes them after the reference’s eight keys, only when present', () => {
    expect(Object.keys(messageToDict(withFields))).toEqual([
      'role',
      'content',
      'image_base64',
      'tool_name',
      'tool_result',
      'tool_calls',
      'tool_call_id',
      'content_parts',
      'id',
      'metadata',
    ]);
    expect(messageToDict({ role: 'user', content: 'x', metadata: { a: 1 } })).not.toHaveProperty(
      'id',
    );
    expect(Object.keys(messageToDict({ role: 'user', content: 'x' }))).toHaveLength(8);
  });

  it('round-trips through toDict/fromDict, decodeState, envelopes and actions', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        const state = addMessages(
          createMemory({ tokenizer: 'heuristic', maxMessages: 50 }),
          messages,
        ).state;
        const viaDict = fromDict(JSON.parse(JSON.stringify(toDict(state))));
        expect(viaDict).toEqual(E.right(state));
        expect(decodeState(JSON.parse(JSON.stringify(state)))).toEqual(E.right(state));
        expect(decodeEnvelope(JSON.parse(JSON.stringify(encodeEnvelope(state))))).toEqual(
          E.right({ kind: 'state', state }),
        );
        let log = createEventLog({ tokenizer: 'heuristic', maxMessages: 50 });
        for (const message of messages)
          log = appendAction(log, memoryActions.messageAdded(message));
        const decoded = JSON.parse(JSON.stringify(logActions(log))) as unknown[];
        for (const action of decoded) expect(E.isRight(decodeAction(action))).toBe(true);
        expect(replay(log).messages).toEqual(state.messages);
      }),
      { numRuns: 80 },
    );
  });

  it('a reference file (no id or metadata) still loads, and a bad id or metadata in a file is named', () => {
    expect(
      fromDict(
        { max_messages: 5, messages: [{ role: 'user', content: 'hi' }] },
        { tokenizer: 'heuristic' },
      ),
    ).toEqual(E.right(expect.objectContaining({ messages: [{ role: 'user', content: 'hi' }] })));
    const bad = fromDict({
      max_messages: 5,
      messages: [
        { role: 'user', content: 'x', id: '', metadata: { when: Number.POSITIVE_INFINITY } },
      ],
    });
    expect(E.isLeft(bad) && bad.left.problems).toEqual([
      'messages[0].id must be a non-empty string, received ""',
      'messages[0].metadata: expected a JSON value, got Infinity at when',
    ]);
    expect(
      fromDict(
        { max_messages: 5, messages: [{ role: 'user', content: 'x', id: null, metadata: null }] },
        { tokenizer: 'heuristic' },
      ),
    ).toEqual(E.right(expect.objectContaining({ messages: [{ role: 'user', content: 'x' }] })));
  });
});

describe('message id and metadata: never sent to a model', () => {
  const tool: Message = {
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_1', name: 'weather', parameters: { city: 'Paris' } }],
    id: 'msg_2',
    metadata: { model: 'gpt-4o' },
  };
  const result: Message = {
    role: 'tool',
    content: '18°C',
    toolCallId: 'call_1',
    toolName: 'weather',
    id: 'msg_3',
    metadata: {},
  };
  const transcript = [withFields, tool, result];
  const strip = (message: Message): Message => {
    const rest: Record<string, unknown> = { ...message };
    delete rest['id'];
    delete rest['metadata'];
    return rest as unknown as Message;
  };

  it('the provider formats are the same with and without them', () => {
    expect(toOpenAIChat(transcript)).toEqual(toOpenAIChat(transcript.map(strip)));
    expect(toAnthropic(transcript)).toEqual(toAnthropic(transcript.map(strip)));
    expect(toModelMessages(transcript)).toEqual(toModelMessages(transcript.map(strip)));
    expect(JSON.stringify(toOpenAIChat(transcript))).not.toContain('msg_');
  });
});
