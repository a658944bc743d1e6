/**
 * The request converters refuse the same bad input the same way (issue #27 §12): `toAnthropic`
 * and the AI SDK adapter's `toModelMessages` validate their input as `toOpenAIChat` does, so a role other than the four, an
 * entry that is not a message object or a list that is not an array throws `InvalidMessageError`
 * naming the index, the field and the value, and never converts a message it cannot read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidMessageError,
  isConversationMemoryError,
  toAnthropic,
  toOpenAIChat,
  type Message,
} from 'conversation-memory';
import { toModelMessages } from 'conversation-memory/ai-sdk';
import { describeValue } from '../../src/util/describeValue';
import { messageArb } from '../arbitraries/message';

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

/** What `run` throws, or `undefined` when it returns. */
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

/** A message's role replaced by any string that is not one of the four roles. */
const badRoleArb = fc
  .oneof(
    fc.string(),
    fc.constantFrom('USER', 'Assistant', 'developer', 'function', 'model', ' user', 'tool\n', ''),
  )
  .filter((role) => !ROLES.has(role));

/** An entry that is not a message object at all. */
const notAMessageArb = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.constant(new Date(0)),
);

/** Expects the three converters to throw InvalidMessageError with the same text but their names. */
const expectSameRefusal = (messages: readonly unknown[], needle: string | RegExp): void => {
  const anthropic = thrown(() => toAnthropic(messages as Message[]));
  const openai = thrown(() => toOpenAIChat(messages as Message[]));
  const aiSdk = thrown(() => toModelMessages(messages as Message[]));
  expect(isConversationMemoryError(aiSdk) && aiSdk.code).toBe('CM_INVALID_MESSAGE');
  expect((aiSdk as Error).message.replace('toModelMessages', 'toOpenAIChat')).toBe(
    (openai as Error).message,
  );
  expect(anthropic).toBeInstanceOf(InvalidMessageError);
  expect(isConversationMemoryError(anthropic) && anthropic.code).toBe('CM_INVALID_MESSAGE');
  expect((anthropic as Error).message).toMatch(needle);
  expect((anthropic as Error).message).toMatch(/^\[conversation-memory\] toAnthropic: /);
  expect((anthropic as Error).message.replace('toAnthropic', 'toOpenAIChat')).toBe(
    (openai as Error).message,
  );
};

describe('toAnthropic and the AI SDK adapter refuse bad input as toOpenAIChat does', () => {
  it('any role that is not one of the four, at any index: the index, the field and the value', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 4 }),
        fc.nat(),
        badRoleArb,
        (messages, at, role) => {
          const index = at % (messages.length + 1);
          const input: unknown[] = [...messages];
          input.splice(index, 0, { role, content: 'x' });
          expectSameRefusal(input, `messages[${index}].role must be one of`);
          expectSameRefusal(input, `received ${describeValue(role)}`);
        },
      ),
    );
  });

  it('an entry that is not a message object, at any index', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 4 }),
        fc.nat(),
        notAMessageArb,
        (messages, at, entry) => {
          const index = at % (messages.length + 1);
          const input: unknown[] = [...messages];
          input.splice(index, 0, entry);
          expectSameRefusal(input, `messages[${index}]`);
        },
      ),
    );
  });

  it('a list that is not an array', () => {
    for (const value of ['hi', 42, null, undefined, { 0: { role: 'user', content: 'x' } }]) {
      const error = thrown(() => toAnthropic(value as never));
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect((error as Error).message).toMatch(/toAnthropic: messages must be an array, received/);
      const aiSdk = thrown(() => toModelMessages(value as never));
      expect(isConversationMemoryError(aiSdk) && aiSdk.code).toBe('CM_INVALID_MESSAGE');
      expect((aiSdk as Error).message).toMatch(/toModelMessages: messages must be an array/);
    }
  });

  it('the role the issue found: toAnthropic([{ role: "USER" }]), and the AI SDK adapter', () => {
    expect(() => toAnthropic([{ role: 'USER' } as never])).toThrow(
      /toAnthropic: messages\[0\]\.role must be one of .*received "USER"/,
    );
    // It returned [undefined] before.
    expect(() => toModelMessages([{ role: 'USER' } as never])).toThrow(
      /toModelMessages: messages\[0\]\.role must be one of .*received "USER"/,
    );
  });

  it('valid input converts as before, and is never changed', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        const copy = structuredClone(messages);
        expect(() => toAnthropic(messages)).not.toThrow();
        expect(messages).toEqual(copy);
      }),
    );
  });
});
