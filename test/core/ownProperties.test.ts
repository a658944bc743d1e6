import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  decodeConfig,
  fromDict,
  InvalidMessageError,
  toDict,
  DEFAULT_CONFIG,
} from 'conversation-memory';
import { jsonNodes, memoryDictArb, protoPayloadArb, withProtoKey } from '../arbitraries/hostile';
import { messageArb } from '../arbitraries/message';

/**
 * Only own properties are read. `JSON.parse('{"__proto__": {...}}')` makes an own key named
 * `__proto__`; a decoder that copies with assignment turns it into a prototype, and every field
 * read afterwards inherits from it. Here it is data: ignored like any unknown key in a record,
 * kept as a key inside tool-call parameters and message metadata (where every key is data).
 */

const PROTO_NAMES = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];

describe('__proto__ in a file is data, never a prototype (the issue examples)', () => {
  it('ignores a root and a message __proto__, whose fields would corrupt the memory', () => {
    const result = fromDict(
      JSON.parse(
        '{"max_messages":5,"__proto__":{"max_tokens":0},"messages":[{"role":"user","content":"hi",' +
          '"tool_calls":[{"name":"x","parameters":{}}],"__proto__":{"tool_name":{"a":1}}}]}',
      ),
      { tokenizer: 'heuristic' },
    );
    expect(result).toEqual(
      E.right(
        expect.objectContaining({
          config: { ...DEFAULT_CONFIG, maxMessages: 5, tokenizer: 'heuristic' },
          messages: [{ role: 'user', content: 'hi', toolCalls: [{ name: 'x', parameters: {} }] }],
        }),
      ),
    );
  });

  it('never reads content through __proto__ (a number there made totalTokens NaN)', () => {
    const result = fromDict(
      JSON.parse(
        '{"max_messages":5,"messages":[{"role":"user","tool_calls":[{"name":"x","parameters":{}}],"__proto__":{"content":12345}}]}',
      ),
      { tokenizer: 'heuristic' },
    );
    expect(E.isRight(result) && result.right.messages).toEqual([
      { role: 'user', content: '', toolCalls: [{ name: 'x', parameters: {} }] },
    ]);
    expect(E.isRight(result) && result.right.totalTokens).toBe(0);
  });

  it('loads a valid file with __proto__ keys inside a tool call and its parameters', () => {
    const text =
      '{"max_messages":5,"messages":[{"role":"assistant","content":null,"tool_calls":[' +
      '{"name":"f","__proto__":{"name":1},"parameters":{"__proto__":{"x":1},"y":[{"__proto__":2}]}}]}]}';
    const result = fromDict(JSON.parse(text), { tokenizer: 'heuristic' });
    expect(E.isRight(result)).toBe(true);
    if (E.isLeft(result)) return;
    const parameters = result.right.messages[0]?.toolCalls?.[0]?.parameters ?? {};
    expect(Object.getPrototypeOf(parameters)).toBe(Object.prototype);
    expect(Object.keys(parameters)).toEqual(['__proto__', 'y']);
    expect(JSON.stringify(toDict(result.right).messages[0]?.tool_calls?.[0]?.parameters)).toBe(
      '{"__proto__":{"x":1},"y":[{"__proto__":2}]}',
    );
  });
});

describe('own properties: properties', () => {
  it('a __proto__ key with corrupting fields, added to any record of a valid file, changes nothing', () => {
    fc.assert(
      fc.property(
        memoryDictArb.chain((dict) =>
          fc.tuple(
            fc.constant(dict),
            fc.constantFrom(
              ...jsonNodes(dict).filter(
                (node) =>
                  !Array.isArray(node.value) &&
                  !node.path.includes('parameters') &&
                  !node.path.includes('metadata'),
              ),
            ),
            protoPayloadArb,
          ),
        ),
        ([dict, node, payload]) => {
          expect(fromDict(withProtoKey(dict, node.path, payload))).toEqual(fromDict(dict));
          // What JSON.parse makes of it, too.
          const reparsed = JSON.parse(JSON.stringify(withProtoKey(dict, node.path, payload)));
          expect(fromDict(reparsed)).toEqual(fromDict(dict));
        },
      ),
    );
  });

  it('a __proto__ key inside tool-call parameters is kept as data, through a round trip', () => {
    fc.assert(
      fc.property(memoryDictArb, protoPayloadArb, (dict, payload) => {
        const text = JSON.stringify(dict).replace(
          /"parameters":\{(\}?)/g,
          (_, empty: string) =>
            `"parameters":{"__proto__":${JSON.stringify(payload)}${empty === '' ? ',' : '}'}`,
        );
        const result = fromDict(JSON.parse(text));
        expect(E.isRight(result)).toBe(true);
        if (E.isLeft(result)) return;
        for (const message of result.right.messages) {
          for (const call of message.toolCalls ?? []) {
            expect(Object.getPrototypeOf(call.parameters)).toBe(Object.prototype);
            expect(Object.hasOwn(call.parameters, '__proto__')).toBe(true);
          }
        }
        expect(fromDict(JSON.parse(JSON.stringify(toDict(result.right))))).toEqual(result);
      }),
    );
  });

  it('a message with a __proto__ key of its own is rejected by name, like any unknown key', () => {
    const state = createMemory({ tokenizer: 'heuristic' });
    fc.assert(
      fc.property(messageArb, protoPayloadArb, (message, payload) => {
        const withProto = withProtoKey(message, [], payload);
        // __proto__ is not a Message field; its payload is never read as fields.
        expect(() => addMessage(state, withProto as never)).toThrow(
          'addMessage: message.__proto__ is not a field of this object',
        );
      }),
    );
  });
});

describe('names of Object.prototype are not found by lookups', () => {
  it.each(PROTO_NAMES)(
    'decodeConfig({ %s: 1 }) names an unknown option, with no odd hint',
    (name) => {
      const options = JSON.parse(`{${JSON.stringify(name)}: 1}`) as object;
      const result = decodeConfig(options);
      expect(E.isLeft(result)).toBe(true);
      if (E.isRight(result)) return;
      expect(result.left.problems).toHaveLength(1);
      expect(result.left.problems[0]).toMatch(
        /is not an option; expected maxMessages, maxTokens, tokenizer, toolPairs, startOn, pinSystem, prune, pruneThreshold, embedder, trimTo$/,
      );
      expect(result.left.message).not.toMatch(/did you mean|native code|function/);
    },
  );

  it.each(PROTO_NAMES)('a message key %s is rejected by name, with no odd hint', (name) => {
    const message = JSON.parse(`{"role":"user","content":"x",${JSON.stringify(name)}:1}`) as object;
    expect(() => addMessage(createMemory({ tokenizer: 'heuristic' }), message as never)).toThrow(
      InvalidMessageError,
    );
    try {
      addMessage(createMemory({ tokenizer: 'heuristic' }), message as never);
    } catch (error) {
      expect((error as Error).message).not.toMatch(/did you mean|native code|function/);
    }
  });

  it.each(PROTO_NAMES)('a tokenizer named %s is unknown to createMemory and fromDict', (name) => {
    expect(() => createMemory({ tokenizer: name })).toThrow(/tokenizer must be "o200k_base"/);
    const result = fromDict({ max_messages: 1 }, { tokenizer: name });
    expect(E.isLeft(result) && result.left.kind).toBe('tokenizer');
  });

  it.each(PROTO_NAMES)('a file key %s is ignored, as every unknown key', (name) => {
    const input = JSON.parse(
      `{"max_messages":2,${JSON.stringify(name)}:{"max_tokens":0}}`,
    ) as object;
    const result = fromDict(input, { tokenizer: 'heuristic' });
    expect(E.isRight(result) && result.right.config).toEqual({
      ...DEFAULT_CONFIG,
      maxMessages: 2,
      tokenizer: 'heuristic',
    });
  });
});
