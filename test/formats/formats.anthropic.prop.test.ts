import fc from 'fast-check';
import type { ContentPart, Message, ToolCall } from 'conversation-memory';
import { describe, expect, it } from 'vitest';
import { fromAnthropic } from 'conversation-memory';
import { toAnthropic } from 'conversation-memory';
import { conversationArb } from '../arbitraries/conversation';
import {
  assistantTextArb,
  assistantToolCallMessage,
  contentPartArb,
  systemMessageArb,
  toolCallArb,
  toolResultFor,
  userMessageArb,
} from '../arbitraries/message';

const decode = (input: unknown): Message[] => {
  const result = fromAnthropic(input);
  if (result._tag === 'Left') throw result.left;
  return result.right;
};

const PART_KEYS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  image_url: ['type', 'imageUrl'],
  image_base64: ['type', 'imageBase64', 'mediaType'],
};

/** A part `toAnthropic` writes as a block and `fromAnthropic` reads back as it was. */
const exactPart = (part: ContentPart): boolean => {
  const keys = PART_KEYS[part.type];
  return (
    keys !== undefined &&
    Object.keys(part).sort().join() === [...keys].sort().join() &&
    part.text !== ''
  );
};

const textsOf = (parts: readonly ContentPart[]): string =>
  parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join(' ');

/** Condition (6) of `fromAnthropic`'s round-trip subset, on content parts. */
const partsInSubset = (message: Message): boolean => {
  const parts = message.contentParts;
  if (parts === undefined) return true;
  return (
    parts.every(exactPart) &&
    !(parts.length === 1 && parts[0]?.type === 'text') &&
    message.content === textsOf(parts)
  );
};

/** A user message with several parts; `content` is their texts joined with a space. */
const multiPartUserArb: fc.Arbitrary<Message> = fc
  .array(contentPartArb.filter(exactPart), { minLength: 2, maxLength: 4 })
  .map((parts): Message => ({ role: 'user', content: textsOf(parts), contentParts: parts }));

const withoutSignature = (call: ToolCall): ToolCall => {
  const copy = { ...call };
  delete copy.thoughtSignature;
  return copy;
};
const withoutToolResult = (message: Message): Message => {
  const copy = { ...message };
  delete copy.toolResult;
  return copy;
};

const subsetUserArb = fc.oneof(userMessageArb.filter(partsInSubset), multiPartUserArb);

/** An assistant tool-call message, some of its results in any order, and maybe a user message. */
const subsetToolTurnArb: fc.Arbitrary<Message[]> = fc
  .uniqueArray(toolCallArb('required').map(withoutSignature), {
    minLength: 1,
    maxLength: 3,
    selector: (call) => call.id,
  })
  .chain((calls) =>
    fc.tuple(
      assistantToolCallMessage(calls).map((m) => (m.content === '' ? { ...m, content: null } : m)),
      fc
        .shuffledSubarray(calls)
        .chain((answered) =>
          fc.tuple(...answered.map((call) => toolResultFor(call).map(withoutToolResult))),
        ),
      fc.option(subsetUserArb, { nil: undefined }),
    ),
  )
  .map(([request, results, after]) => [request, ...results, ...(after ? [after] : [])]);

/** Conversations in the subset that `fromAnthropic` documents as round-tripping exactly. */
const subsetConversationArb: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.option(
      systemMessageArb.filter((m) => m.content !== ''),
      { nil: undefined },
    ),
    fc.array(
      fc.oneof(
        subsetUserArb.map((m) => [m]),
        assistantTextArb.map((m) => [m]),
        subsetToolTurnArb,
      ),
      { maxLength: 6 },
    ),
  )
  .map(([first, turns]) => [...(first ? [first] : []), ...turns.flat()]);

describe('toAnthropic and fromAnthropic', () => {
  it('round-trip every conversation of the documented subset, directly and through JSON', () => {
    fc.assert(
      fc.property(subsetConversationArb, (messages) => {
        const wire = toAnthropic(messages);
        expect(decode(wire)).toEqual(messages);
        expect(decode(JSON.parse(JSON.stringify(wire)))).toEqual(messages);
      }),
    );
  });

  it('read back whatever toAnthropic writes, which then writes the same again', () => {
    fc.assert(
      fc.property(conversationArb(), (messages) => {
        const wire = toAnthropic(messages);
        const json = JSON.parse(JSON.stringify(wire)) as unknown;
        expect(json).toEqual(JSON.parse(JSON.stringify(toAnthropic(decode(json)))));
        expect(toAnthropic(decode(wire))).toEqual(wire);
      }),
    );
  });
});
