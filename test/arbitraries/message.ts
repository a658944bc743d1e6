import fc from 'fast-check';
import { expect } from 'vitest';
import {
  fromDict,
  messageToDict,
  type ContentPart,
  type JsonObject,
  type Message,
  type Role,
  type ToolCall,
} from 'conversation-memory';
import { identifierArb, textArb } from './text';

/** Drops the keys whose value is `undefined`: messages in canonical form never hold `undefined`. */
const compact = <T>(value: Record<string, unknown>): T => {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out as T;
};

/** `arb` about one time in `1 + freq`, otherwise absent (`undefined`, removed by `compact`). */
const sometimes = <T>(arb: fc.Arbitrary<T>, freq = 4): fc.Arbitrary<T | undefined> =>
  fc.option(arb, { nil: undefined, freq });

/** A JSON key; now and then `__proto__`, which must stay plain data. */
const jsonKeyArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: identifierArb, weight: 12 },
  { arbitrary: fc.constantFrom('__proto__', 'toString', ''), weight: 1 },
);

/**
 * `-0` becomes `0`. JSON has no `-0`, so the library stores a `-0` parameter as `0` (tested in
 * `test/core/addMessage.test.ts`); generated input keeps to what the library stores, so the
 * "admitted unchanged" checks compare like with like.
 */
const withoutNegativeZero = (value: unknown): unknown => {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty keeps a `__proto__` key as own data, as JSON.parse does.
      Object.defineProperty(out, key, {
        value: withoutNegativeZero((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
};

/** Tool-call parameters: a small JSON object (no `-0`, no `undefined`, no null prototype). */
export const parametersArb: fc.Arbitrary<JsonObject> = fc
  .dictionary(jsonKeyArb, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3, noNullPrototype: true })
  .map((value) => withoutNegativeZero(value) as JsonObject);

/**
 * A tool call in canonical form. With `id: 'required'` it always has an id (as providers send);
 * otherwise the id is sometimes absent.
 */
export const toolCallArb = (id: 'required' | 'optional' = 'optional'): fc.Arbitrary<ToolCall> =>
  fc
    .record({
      id: id === 'required' ? identifierArb : sometimes(identifierArb, 3),
      name: identifierArb,
      parameters: parametersArb,
      thoughtSignature: sometimes(fc.base64String({ maxLength: 12 }), 6),
    })
    .map((raw) => compact<ToolCall>(raw));

/** A content part: text, an image URL, base64 image data, or an unknown type kept as is. */
export const contentPartArb: fc.Arbitrary<ContentPart> = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant('text'), text: textArb }), weight: 3 },
  { arbitrary: fc.record({ type: fc.constant('image_url'), imageUrl: fc.webUrl() }), weight: 2 },
  {
    arbitrary: fc.record({
      type: fc.constant('image_base64'),
      imageBase64: fc.base64String({ maxLength: 24 }),
      mediaType: fc.constantFrom('image/png', 'image/jpeg', 'image/webp'),
    }),
    weight: 2,
  },
  {
    arbitrary: fc
      .record({
        type: fc.oneof(fc.constant('text'), identifierArb),
        text: sometimes(textArb, 1),
        imageUrl: sometimes(fc.webUrl(), 3),
        imageBase64: sometimes(fc.base64String({ maxLength: 8 }), 3),
        mediaType: sometimes(fc.constantFrom('image/gif', 'text/plain'), 3),
      })
      .map((raw) => compact<ContentPart>(raw)),
    weight: 1,
  },
);

/** An application's message id: any non-empty string (a row id, a UUID, the AI SDK's ids). */
export const applicationIdArb: fc.Arbitrary<string> = fc.oneof(
  identifierArb,
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 12 }),
);

/** An application's message metadata: a small JSON object, as parameters are. */
export const metadataArb: fc.Arbitrary<JsonObject> = parametersArb;

/** Message content: text, and sometimes `null` (a provider's tool-call-only reply). */
export const contentArb: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: textArb, weight: 7 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** A role, each of the four equally likely. */
export const roleArb: fc.Arbitrary<Role> = fc.constantFrom('user', 'assistant', 'system', 'tool');

/**
 * Any valid message of any role, in canonical form (no `undefined`, no empty lists): content may
 * be `null`; tool calls, tool-result fields, an image and content parts appear on any role now and
 * then, since neither the reference nor the library restricts them by role.
 */
export const messageArb: fc.Arbitrary<Message> = fc
  .record({
    role: roleArb,
    content: contentArb,
    toolCalls: sometimes(fc.array(toolCallArb(), { minLength: 1, maxLength: 3 }), 3),
    toolCallId: sometimes(identifierArb, 4),
    toolName: sometimes(identifierArb, 4),
    toolResult: sometimes(textArb, 6),
    imageBase64: sometimes(fc.base64String({ maxLength: 16 }), 8),
    contentParts: sometimes(fc.array(contentPartArb, { minLength: 1, maxLength: 3 }), 5),
    id: sometimes(applicationIdArb, 5),
    metadata: sometimes(metadataArb, 5),
  })
  .map((raw) => compact<Message>(raw));

/** A plain user message; now and then an image message (`contentParts` with text and image). */
export const userMessageArb: fc.Arbitrary<Message> = fc.oneof(
  { arbitrary: fc.record({ role: fc.constant('user' as const), content: textArb }), weight: 5 },
  {
    arbitrary: fc.tuple(textArb, contentPartArb).map(([prompt, image]): Message => ({
      role: 'user',
      content: prompt,
      contentParts: [{ type: 'text', text: prompt }, image],
    })),
    weight: 1,
  },
);

/** A system message. */
export const systemMessageArb: fc.Arbitrary<Message> = fc.record({
  role: fc.constant('system' as const),
  content: textArb,
});

/** A plain assistant reply (no tool calls). */
export const assistantTextArb: fc.Arbitrary<Message> = fc.record({
  role: fc.constant('assistant' as const),
  content: textArb,
});

/** An assistant message requesting the given tool calls; content is `''`, `null` or some text. */
export const assistantToolCallMessage = (calls: readonly ToolCall[]): fc.Arbitrary<Message> =>
  fc
    .oneof(fc.constant(''), fc.constant(null), textArb)
    .map((content): Message => ({ role: 'assistant', content, toolCalls: calls }));

/** The tool result answering `call`: `toolCallId` and `toolName` match it. */
export const toolResultFor = (call: ToolCall): fc.Arbitrary<Message> =>
  fc
    .record({ content: textArb, toolResult: sometimes(textArb, 6) })
    .map(({ content, toolResult }) =>
      compact<Message>({
        role: 'tool',
        content,
        toolCallId: call.id,
        toolName: call.name,
        toolResult,
      }),
    );

/**
 * Checks that a message survives the reference JSON: `messageToDict` writes the eight keys in the
 * reference's order (then `id` and `metadata` when the message has them), and `fromDict` (directly and after `JSON.stringify`) reads back a message
 * deep-equal to the original.
 */
export const expectMessageRoundTrip = (message: Message): void => {
  const dict = messageToDict(message);
  expect(Object.keys(dict)).toEqual([
    'role',
    'content',
    'image_base64',
    'tool_name',
    'tool_result',
    'tool_calls',
    'tool_call_id',
    'content_parts',
    // The application's fields, after the reference's eight keys and only when present.
    ...(message.id === undefined ? [] : ['id']),
    ...(message.metadata === undefined ? [] : ['metadata']),
  ]);
  for (const call of dict.tool_calls ?? []) {
    expect(Object.keys(call)).toEqual(['name', 'parameters', 'id', 'thought_signature']);
  }
  for (const part of dict.content_parts ?? []) {
    expect(Object.keys(part)).toEqual(['type', 'text', 'image_url', 'image_base64', 'media_type']);
  }
  const memory = {
    max_messages: 1,
    max_tokens: null,
    message_count: 1,
    messages: [dict],
    summary: null,
  };
  for (const input of [memory, JSON.parse(JSON.stringify(memory)) as unknown]) {
    const decoded = fromDict(input, { tokenizer: 'heuristic' });
    if (decoded._tag === 'Left') throw decoded.left;
    expect(decoded.right.messages).toEqual([message]);
  }
};
