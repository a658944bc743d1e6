import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  ConversationMemory,
  createMemory,
  decodeConfig,
  fromDict,
  fromDictWithEffects,
  InvalidMessageError,
  isConversationMemoryError,
  MemoryArgumentError,
  MemoryConfigError,
  MemoryDecodeError,
  toolMessage,
  imageMessage,
  userMessage,
  type Message,
  DEFAULT_CONFIG,
} from 'conversation-memory';
import {
  HostileError,
  hostilityArb,
  jsonNodes,
  makeHostile,
  memoryDictArb,
  replaceAt,
  TRAPS,
  type Hostility,
} from '../arbitraries/hostile';
import { messageArb } from '../arbitraries/message';

/**
 * Input that crosses a boundary is hostile: a getter or Proxy trap that throws, a revoked Proxy.
 * The decoders the README promises never throw (`decodeConfig`, `fromDict`,
 * `fromDictWithEffects`) return a `Left` for all of it; the reducers throw our own error classes
 * (never the caller's error or a raw `TypeError`), and leave the state as it was.
 */

const HOSTILITIES: readonly Hostility[] = [
  ...TRAPS.map((trap): Hostility => ({ kind: 'trap', trap })),
  { kind: 'revoked' },
];

const throwingGetter = (base: object, key: string): object =>
  makeHostile(base, { kind: 'throwing getter', key }) as object;

describe('decodeConfig never throws', () => {
  it('returns Left for an object whose getter throws (the issue example)', () => {
    const result = decodeConfig(throwingGetter({}, 'maxMessages'));
    expect(E.isLeft(result)).toBe(true);
    if (E.isRight(result)) return;
    expect(result.left).toBeInstanceOf(MemoryConfigError);
    expect(result.left.problems).toEqual([
      'options could not be read: HostileError: hostile input\\n[ERROR] forged log line \\u001b[31mred',
    ]);
  });

  it.each(HOSTILITIES)('returns Left for a Proxy ($kind $trap)', (hostility) => {
    const result = decodeConfig(makeHostile({ maxMessages: 5 }, hostility));
    if (hostility.kind === 'trap' && hostility.trap === 'has') {
      // `in` is never used: only own keys are read, so this Proxy reads as a plain object.
      expect(result).toEqual(E.right({ ...DEFAULT_CONFIG, maxMessages: 5 }));
      return;
    }
    expect(E.isLeft(result)).toBe(true);
    if (E.isLeft(result)) expect(result.left.problems[0]).toMatch(/^options could not be read: /);
  });

  it('createMemory and the facade constructor throw MemoryConfigError, not the input error', () => {
    const hostile = throwingGetter({}, 'tokenizer');
    expect(() => createMemory(hostile as never)).toThrow(MemoryConfigError);
    expect(() => new ConversationMemory(hostile as never)).toThrow(MemoryConfigError);
  });

  it('property: options with a hostile part anywhere give Either, never a throw', () => {
    fc.assert(
      fc.property(
        fc.record({
          maxMessages: fc.integer({ min: 1, max: 9 }),
          tokenizer: fc.constant('heuristic'),
        }),
        hostilityArb(['maxMessages', 'tokenizer', 'extra']),
        (options, hostility) => {
          const result = decodeConfig(makeHostile(options, hostility));
          expect(E.isLeft(result) || E.isRight(result)).toBe(true);
          if (E.isLeft(result)) expect(result.left).toBeInstanceOf(MemoryConfigError);
        },
      ),
    );
  });
});

describe('isConversationMemoryError never throws', () => {
  it.each(HOSTILITIES)('is false for a thrown Proxy ($kind $trap)', (hostility) => {
    expect(isConversationMemoryError(makeHostile(new Error('x'), hostility))).toBe(false);
  });
});

describe('fromDict and fromDictWithEffects never throw', () => {
  const valid = {
    max_messages: 5,
    messages: [
      { role: 'assistant', content: null, tool_calls: [{ name: 'f', parameters: { a: [1] } }] },
      { role: 'user', content: 'hi', content_parts: [{ type: 'text', text: 'hi' }] },
    ],
  };
  const at = (path: (string | number)[], hostility: Hostility): unknown =>
    replaceAt(valid, path, (node) => makeHostile(node, hostility));

  it.each([
    [['messages'] as (string | number)[]],
    [['messages', 0]],
    [['messages', 0, 'tool_calls']],
    [['messages', 0, 'tool_calls', 0]],
    [['messages', 0, 'tool_calls', 0, 'parameters']],
    [['messages', 0, 'tool_calls', 0, 'parameters', 'a']],
    [['messages', 1, 'content_parts', 0]],
  ])('returns Left for a hostile value at %j, whatever throws', (path) => {
    const plain = fromDict(valid, { tokenizer: 'heuristic' });
    for (const hostility of HOSTILITIES) {
      const result = fromDict(at(path, hostility), { tokenizer: 'heuristic' });
      const effects = fromDictWithEffects(at(path, hostility), { tokenizer: 'heuristic' });
      // A value is read through `get`, so a throwing `get` or a revoked Proxy always fails it.
      // Other traps are pulled only where the decoder needs them (records are read by own known
      // keys, never enumerated, except tool-call parameters); when none is pulled, the value
      // decodes exactly as the plain one.
      if (hostility.kind === 'revoked' || (hostility.kind === 'trap' && hostility.trap === 'get')) {
        expect(E.isLeft(result) && result.left).toBeInstanceOf(MemoryDecodeError);
      }
      for (const outcome of [result, E.map((t: { state: unknown }) => t.state)(effects)]) {
        if (E.isLeft(outcome)) expect(outcome.left).toBeInstanceOf(MemoryDecodeError);
        else expect(outcome).toEqual(plain);
      }
    }
  });

  it('property: a hostile node anywhere in a valid dict gives Left, or the plain result', () => {
    fc.assert(
      fc.property(
        memoryDictArb.chain((dict) =>
          fc.tuple(
            fc.constant(dict),
            fc.constantFrom(...jsonNodes(dict)),
            hostilityArb(['role', 'content', 'name', 'parameters', 'type', 'extra']),
          ),
        ),
        ([dict, node, hostility]) => {
          const plain = fromDict(dict);
          for (const decode of [fromDict, fromDictWithEffects]) {
            const result = decode(replaceAt(dict, node.path, (n) => makeHostile(n, hostility)));
            if (E.isLeft(result)) {
              expect(result.left).toBeInstanceOf(MemoryDecodeError);
              expect(result.left.problems.length).toBeGreaterThan(0);
            } else {
              const state =
                decode === fromDict ? result.right : (result.right as { state: unknown }).state;
              expect(state).toEqual(E.isRight(plain) ? plain.right : undefined);
            }
          }
        },
      ),
    );
  });

  it('options that throw when read are a programmer error: MemoryArgumentError', () => {
    expect(() => fromDict({ max_messages: 1 }, throwingGetter({}, 'tokenizer') as never)).toThrow(
      MemoryArgumentError,
    );
    expect(() =>
      fromDict({ max_messages: 1 }, makeHostile({}, { kind: 'revoked' }) as never),
    ).toThrow(MemoryArgumentError);
  });
});

describe('reducers report unreadable input with our error classes', () => {
  const state = addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('kept')).state;
  const message = {
    role: 'assistant',
    content: 'x',
    toolCalls: [{ id: 'c1', name: 'f', parameters: { deep: { list: [1] } } }],
    contentParts: [{ type: 'text', text: 'x' }],
  };
  const expectUntouched = (): void => {
    expect(state.messages.map((m) => m.content)).toEqual(['kept']);
  };

  it.each(HOSTILITIES.filter((h) => h.kind !== 'trap' || h.trap !== 'has'))(
    'addMessage: a message that throws when read ($kind $trap) is an InvalidMessageError',
    (hostility) => {
      const attempt = (): unknown => addMessage(state, makeHostile(message, hostility) as never);
      if (hostility.kind === 'trap' && hostility.trap === 'getPrototypeOf') {
        // A message's prototype is never read (class instances are accepted), so it is admitted.
        expect(attempt).not.toThrow();
        return;
      }
      expect(attempt).toThrow(InvalidMessageError);
      expect(attempt).toThrow(/addMessage: message could not be read: /);
      expectUntouched();
    },
  );

  it('names the cause: the caller error is kept, a revoked Proxy TypeError too', () => {
    try {
      addMessage(state, throwingGetter({ role: 'user' }, 'content') as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect((error as Error).cause).toBeInstanceOf(HostileError);
      // The thrown text is echoed shortened and escaped: no forged line, no terminal escape.
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect((error as Error).message).not.toMatch(/[\n\u001b]/);
    }
    try {
      addMessage(state, makeHostile(message, { kind: 'revoked' }) as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
    }
  });

  it.each([
    ['toolCalls'],
    ['toolCalls/0'],
    ['toolCalls/0/parameters'],
    ['toolCalls/0/parameters/deep'],
    ['toolCalls/0/parameters/deep/list'],
    ['contentParts'],
    ['contentParts/0'],
  ])('a hostile value at %s inside the message is an InvalidMessageError', (where) => {
    const path = where.split('/').map((step) => (/^\d+$/.test(step) ? Number(step) : step));
    for (const hostility of HOSTILITIES) {
      const hostile = replaceAt(message, path, (node) => makeHostile(node, hostility));
      try {
        addMessage(state, hostile as never);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidMessageError);
      }
    }
    expectUntouched();
  });

  it('addMessages: a list that throws when read, or a hostile item, is an InvalidMessageError', () => {
    for (const hostility of HOSTILITIES) {
      if (hostility.kind === 'trap' && hostility.trap !== 'get') continue;
      const list = makeHostile([userMessage('a')], hostility);
      expect(() => addMessages(state, list as never)).toThrow(InvalidMessageError);
    }
    const withGetter = throwingGetter([userMessage('a'), userMessage('b')], '1');
    expect(() => addMessages(state, withGetter as never)).toThrow(
      /addMessages: messages\[1\] could not be read: HostileError/,
    );
    expectUntouched();
  });

  it('a revoked Proxy as the state is a MemoryArgumentError', () => {
    const revoked = makeHostile(state, { kind: 'revoked' });
    expect(() => addMessage(revoked as never, userMessage('x'))).toThrow(MemoryArgumentError);
    expect(() => addMessage(revoked as never, userMessage('x'))).toThrow(
      /addMessage: state must be a MemoryState .*the value could not be read: TypeError/,
    );
  });

  it('the constructors read their object arguments once, with our error classes', () => {
    expect(() => toolMessage('4', throwingGetter({}, 'toolCallId') as never)).toThrow(
      InvalidMessageError,
    );
    expect(() => imageMessage(throwingGetter({}, 'base64') as never)).toThrow(InvalidMessageError);
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    expect(() => memory.add(throwingGetter({ role: 'user' }, 'content') as never)).toThrow(
      InvalidMessageError,
    );
    expect(memory.length).toBe(0);
  });

  it('property: any message made hostile anywhere is admitted as the plain one, or rejected with InvalidMessageError', () => {
    fc.assert(
      fc.property(
        messageArb.chain((m) =>
          fc.tuple(
            fc.constant(m),
            fc.constantFrom(...jsonNodes(m)),
            hostilityArb(['role', 'content', 'name', 'text', 'extra']),
          ),
        ),
        ([plain, node, hostility]) => {
          const hostile = replaceAt(plain, node.path, (n) => makeHostile(n, hostility));
          let admitted: readonly Message[];
          try {
            admitted = addMessage(state, hostile as never).state.messages;
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidMessageError);
            return;
          }
          expect(admitted.at(-1)).toEqual(plain);
        },
      ),
    );
  });
});
