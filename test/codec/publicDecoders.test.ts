import fc from 'fast-check';
import { either as E } from 'fp-ts';
import { describe, expect, it } from 'vitest';
import {
  decodeAction,
  decodeEnvelope,
  decodeState,
  fromAnthropic,
  fromDict,
  fromDictWithEffects,
  fromOpenAIChat,
  isConversationMemoryError,
  MemoryDecodeError,
} from 'conversation-memory';
import { fromModelMessages } from 'conversation-memory/ai-sdk';
import { decodeKnowledgeState } from 'conversation-memory/knowledge';

/**
 * The nine public decoders that wrap a decode into `Either<MemoryDecodeError, T>` share one
 * wrapper (src/codec/publicDecoder.ts), so a bad input gets the same error shape from each: a
 * `MemoryDecodeError` that names the public call, with `kind: 'data'`, a complete count and one
 * line per problem that starts with the path it is about. Input that throws while it is read
 * (every Proxy trap, whatever is thrown) is one more bad input, never a throw.
 */
type Decoder = [
  api: string,
  decode: (input: unknown) => unknown,
  subject: string,
  takes: () => object,
];
const OBJECT = (): object => ({});
const LIST = (): object => [];
const DECODERS: readonly Decoder[] = [
  ['decodeState', decodeState, '(root)', OBJECT],
  ['decodeAction', decodeAction, '(root)', OBJECT],
  ['decodeEnvelope', decodeEnvelope, '(root)', OBJECT],
  ['fromDict', fromDict, '(root)', OBJECT],
  // fromDictWithEffects reads the file as fromDict does, under fromDict's name.
  ['fromDict', fromDictWithEffects, '(root)', OBJECT],
  ['fromOpenAIChat', fromOpenAIChat, '(root)', LIST],
  ['fromAnthropic', fromAnthropic, '(root)', OBJECT],
  ['decodeKnowledgeState', decodeKnowledgeState, '(root)', OBJECT],
  // The AI SDK's list stands for a `messages` field.
  ['fromModelMessages', fromModelMessages, 'messages', LIST],
];

/** The failure a decoder returned (the test fails when it returned a Right or threw). */
const failureOf = (decode: (input: unknown) => unknown, input: unknown): MemoryDecodeError => {
  const result = decode(input) as E.Either<unknown, unknown>;
  expect(E.isLeft(result)).toBe(true);
  return (result as E.Left<MemoryDecodeError>).left;
};

/** The shape every decoder's failure has. */
const expectDecodeFailure = (error: MemoryDecodeError, api: string, subject: string): void => {
  expect(isConversationMemoryError(error)).toBe(true);
  expect(error).toBeInstanceOf(MemoryDecodeError);
  expect(error.code).toBe('CM_DECODE');
  expect(error.name).toBe('MemoryDecodeError');
  expect(error.kind).toBe('data');
  expect(error.countComplete).toBe(true);
  expect(error.problemCount).toBe(error.problems.length);
  expect(error.problems.length).toBeGreaterThan(0);
  expect(error.detail).toBe(`invalid input:\n  ${error.problems.join('\n  ')}`);
  expect(error.message).toBe(`[conversation-memory] ${api}: ${error.detail}`);
  for (const problem of error.problems) expect(problem.startsWith(subject)).toBe(true);
};

/** What a hostile input throws: an Error, a primitive, an object that cannot be printed. */
const thrownArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.string().map((text) => new Error(text)),
  fc.string().map((text) => new TypeError(text)),
  fc.anything(),
  fc.constant(Object.create(null) as unknown),
  fc.constant(Symbol('thrown')),
  fc.constant({
    toString: () => {
      throw new Error('toString threw');
    },
  }),
);

/** Every trap of a Proxy over `target` (what the decoder reads: an object or a list) throws. */
const throwingProxy = (target: object, thrown: unknown): unknown => {
  const raise = (): never => {
    throw thrown;
  };
  return new Proxy(target, {
    get: raise,
    has: raise,
    ownKeys: raise,
    getOwnPropertyDescriptor: raise,
    getPrototypeOf: raise,
  });
};

describe('the nine public decoders', () => {
  it.each(DECODERS)(
    '%s: input that throws while read is one problem, never a throw',
    (api, decode, subject, takes) => {
      fc.assert(
        fc.property(thrownArb, (thrown) => {
          const error = failureOf(decode, throwingProxy(takes(), thrown));
          expectDecodeFailure(error, api, subject);
          expect(error.problems).toHaveLength(1);
          expect(error.problems[0]?.startsWith(`${subject}: could not read the input: `)).toBe(
            true,
          );
        }),
      );
    },
  );

  it.each(DECODERS)('%s: a revoked Proxy is read as a TypeError', (api, decode, subject) => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const error = failureOf(decode, proxy);
    expectDecodeFailure(error, api, subject);
    expect(error.problems).toEqual([
      expect.stringMatching(
        new RegExp(`^${subject.replace(/[()]/g, '\\$&')}: could not read the input: TypeError: `),
      ),
    ]);
  });

  it.each(DECODERS)(
    '%s: a value of the wrong kind gets problems named by path',
    (api, decode, subject) => {
      const wrongKind = fc.oneof(
        fc.integer(),
        fc.string(),
        fc.boolean(),
        fc.constantFrom(null, undefined, 1n, Symbol('s'), () => 0),
      );
      fc.assert(
        fc.property(wrongKind, (input) =>
          expectDecodeFailure(failureOf(decode, input), api, subject),
        ),
      );
    },
  );
});
