import { modelMessageSchema } from 'ai';
import { either as E } from 'fp-ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from 'conversation-memory';
import { fromModelMessages, toModelMessages } from 'conversation-memory/ai-sdk';
import { parametersArb } from '../arbitraries/message';
import { identifierArb, textArb } from '../arbitraries/text';

const mediaArb = fc.option(fc.constantFrom('image/png', 'image/jpeg'), { nil: undefined });

/** An image part the AI SDK can carry: an http(s) URL, or base64 data (never a `scheme://`). */
const imagePartArb: fc.Arbitrary<ContentPart> = fc.oneof(
  fc
    .tuple(fc.webUrl(), mediaArb)
    .map(([imageUrl, mediaType]) =>
      mediaType === undefined
        ? { type: 'image_url', imageUrl }
        : { type: 'image_url', imageUrl, mediaType },
    ),
  fc
    .tuple(fc.base64String({ maxLength: 24 }), mediaArb)
    .map(([imageBase64, mediaType]) =>
      mediaType === undefined
        ? { type: 'image_base64', imageBase64 }
        : { type: 'image_base64', imageBase64, mediaType },
    ),
);

/**
 * A user message with parts, as the format expresses it: `content` is the parts' texts joined
 * by newlines, and the parts are not one lone text part (that is plain content).
 */
const userPartsArb: fc.Arbitrary<Message> = fc
  .array(
    fc.oneof(
      textArb.map((text): ContentPart => ({ type: 'text', text })),
      imagePartArb,
    ),
    {
      minLength: 1,
      maxLength: 4,
    },
  )
  .filter((parts) => !(parts.length === 1 && parts[0]?.type === 'text'))
  .map((contentParts) => ({
    role: 'user',
    content: contentParts.flatMap((p) => (p.type === 'text' ? [p.text ?? ''] : [])).join('\n'),
    contentParts,
  }));

const callsArb = fc.uniqueArray(
  fc.record({ id: identifierArb, name: identifierArb, parameters: parametersArb }),
  { minLength: 1, maxLength: 3, selector: (call) => call.id },
);

/**
 * The subset the format expresses: no `thoughtSignature`, `toolResult` or `imageBase64` field;
 * an assistant tool-call message's content is text or `null` (not `''`).
 */
const expressibleArb: fc.Arbitrary<Message> = fc.oneof(
  textArb.map((content): Message => ({ role: 'system', content })),
  textArb.map((content): Message => ({ role: 'user', content })),
  userPartsArb,
  textArb.map((content): Message => ({ role: 'assistant', content })),
  fc
    .tuple(
      fc.option(
        textArb.filter((t) => t !== ''),
        { nil: null },
      ),
      callsArb,
    )
    .map(([content, toolCalls]): Message => ({ role: 'assistant', content, toolCalls })),
  fc
    .tuple(textArb, identifierArb, fc.option(identifierArb, { nil: undefined }))
    .map(([content, toolCallId, toolName]): Message =>
      toolName === undefined
        ? { role: 'tool', content, toolCallId }
        : { role: 'tool', content, toolCallId, toolName },
    ),
);

describe('AI SDK ModelMessage round trip (properties)', () => {
  it('fromModelMessages(toModelMessages(m)) is m, also through JSON; the SDK schema accepts every message', () => {
    fc.assert(
      fc.property(fc.array(expressibleArb, { maxLength: 8 }), (messages) => {
        const model = toModelMessages(messages);
        for (const message of model) {
          expect(modelMessageSchema.safeParse(message).success).toBe(true);
        }
        for (const input of [model, JSON.parse(JSON.stringify(model)) as unknown]) {
          const back = fromModelMessages(input);
          if (E.isLeft(back)) throw back.left;
          expect(back.right).toEqual(messages);
        }
      }),
    );
  });
});
