import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isConversationMemoryError,
  MemoryArgumentError,
  validateTranscript,
  type Message,
} from 'conversation-memory';
import {
  HostileError,
  hostilityArb,
  jsonNodes,
  makeHostile,
  replaceAt,
} from '../arbitraries/hostile';
import { assistant, call, tool, user } from '../helpers';

/**
 * validateTranscript reports input it cannot read with its own error, as it reports a non-array
 * today (issue #15, item 11): a `MemoryArgumentError` naming where, never a raw `TypeError` or the
 * caller's own error, and never a walk over the length of a sparse list.
 */

const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
};

const failure = (messages: unknown): Error => {
  try {
    validateTranscript(messages as never, 'openai');
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected validateTranscript to throw');
};

describe('validateTranscript reads what it is given safely', () => {
  it('the issue example: a revoked Proxy is a MemoryArgumentError', () => {
    const error = failure(revoked());
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(error.message).toMatch(
      /^\[conversation-memory\] validateTranscript: messages could not be read: TypeError: /,
    );
  });

  it.each([
    [[null], 'messages[0] must be a message object, received null'],
    [[user('q'), 'hi'], 'messages[1] must be a message object, received string "hi"'],
    [[user('q'), revoked()], 'messages could not be read: TypeError:'],
    [
      Object.assign([user('q')], { length: 2 ** 32 - 1 }),
      'messages[1] must be a message object, received undefined',
    ],
  ])('%#: a bad item is named', (messages, what) => {
    const error = failure(messages);
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(error.message.startsWith(`[conversation-memory] validateTranscript: ${what}`)).toBe(
      true,
    );
  });

  it('a getter that throws inside a message is our error, carrying the cause', () => {
    const message = Object.defineProperty({ content: 'q' }, 'role', {
      get: () => {
        throw new HostileError();
      },
      enumerable: true,
    });
    const error = failure([message]);
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(error.message).toMatch(/messages could not be read: HostileError: hostile input/);
    expect(error.cause).toBeInstanceOf(HostileError);
  });

  it('property: a transcript made hostile anywhere gives the plain violations or our error', () => {
    const plain: Message[] = [
      user('q'),
      assistant(null, call('c1'), call('c2')),
      tool('4', 'c1'),
      user('again'),
    ];
    const json = JSON.parse(JSON.stringify(plain)) as Message[];
    const expected = validateTranscript(json, 'anthropic');
    const nodes = jsonNodes(json);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: nodes.length - 1 }),
        hostilityArb(['role', 'toolCalls', 'toolCallId', 'content', 'id', '0', '1']),
        (at, hostility) => {
          const node = nodes[at] as (typeof nodes)[number];
          const hostile = replaceAt(json, node.path, (value) => makeHostile(value, hostility));
          let result: unknown;
          try {
            result = validateTranscript(hostile as never, 'anthropic');
          } catch (error) {
            expect(isConversationMemoryError(error)).toBe(true);
            expect(error).toBeInstanceOf(MemoryArgumentError);
            return;
          }
          expect(result).toEqual(expected);
        },
      ),
    );
  });
});
