import fc from 'fast-check';
import type { ContentPart, Message, ToolCall } from 'conversation-memory';
import { parametersArb } from './message';
import { identifierArb, textArb } from './text';

/**
 * Messages in the subset Chat Completions can express, so that
 * `fromOpenAIChat(toOpenAIChat(messages))` gives them back exactly. The subset, as the TSDoc of
 * `fromOpenAIChat` states it, is checked by {@link inOpenAIChatSubset}; these arbitraries build
 * conversations that are almost always in it (a generated id can collide; tests `fc.pre` it).
 */

/** The non-empty texts of text parts, joined by a space: `content` beside parts. */
export const joinedTexts = (parts: readonly ContentPart[]): string =>
  parts
    .flatMap((p) => (p.type === 'text' && p.text !== undefined && p.text !== '' ? [p.text] : []))
    .join(' ');

const textPartArb = textArb.map((text): ContentPart => ({ type: 'text', text }));
const imagePartArb: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.webUrl().map((imageUrl): ContentPart => ({ type: 'image_url', imageUrl })),
  fc
    .record({
      imageBase64: fc.base64String({ maxLength: 24 }),
      mediaType: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/gif'),
    })
    .map(({ imageBase64, mediaType }): ContentPart => ({
      type: 'image_base64',
      imageBase64,
      mediaType,
    })),
);

/** Content as a string, or as parts (with `content` their joined texts). */
const contentOf = (partArb: fc.Arbitrary<ContentPart>) =>
  fc.oneof(
    { arbitrary: textArb.map((content) => ({ content })), weight: 3 },
    {
      arbitrary: fc
        .array(partArb, { minLength: 1, maxLength: 3 })
        .map((contentParts) => ({ content: joinedTexts(contentParts), contentParts })),
      weight: 1,
    },
  );

const userArb = contentOf(fc.oneof(textPartArb, imagePartArb)).map((content): Message => ({
  role: 'user',
  ...content,
}));
const systemArb = contentOf(textPartArb).map((content): Message => ({
  role: 'system',
  ...content,
}));
const assistantArb = contentOf(textPartArb).map((content): Message => ({
  role: 'assistant',
  ...content,
}));

/** A tool call with an id and no `thoughtSignature`. */
const callArb: fc.Arbitrary<ToolCall> = fc.record({
  id: identifierArb,
  name: identifierArb,
  parameters: parametersArb,
});

/** A tool result answering `call`, named after it. */
const resultFor = (call: ToolCall): fc.Arbitrary<Message> =>
  contentOf(textPartArb).map((content): Message => ({
    role: 'tool',
    ...content,
    toolCallId: call.id ?? '',
    toolName: call.name,
  }));

/** An assistant tool-call message and results for some of its calls, in any order. */
const toolTurnArb: fc.Arbitrary<Message[]> = fc
  .uniqueArray(callArb, { minLength: 1, maxLength: 3, selector: (c) => c.id })
  .chain((calls) =>
    fc.tuple(
      fc.oneof(
        fc.constant(null),
        textArb.filter((t) => t !== ''),
      ),
      fc.shuffledSubarray(calls).chain((answered) => fc.tuple(...answered.map(resultFor))),
      fc.constant(calls),
    ),
  )
  .map(([content, results, calls]) => [
    { role: 'assistant', content, toolCalls: calls },
    ...results,
  ]);

/** A tool result whose call is not in its turn: it has no `toolName`. */
const orphanArb: fc.Arbitrary<Message> = fc
  .tuple(identifierArb, contentOf(textPartArb))
  .map(([id, content]): Message => ({ role: 'tool', ...content, toolCallId: `orphan:${id}` }));

/** A conversation in the expressible subset (tool turns, orphans, every role, images). */
export const openaiChatConversationArb: fc.Arbitrary<Message[]> = fc
  .array(
    fc.oneof(
      { arbitrary: userArb.map((m) => [m]), weight: 3 },
      { arbitrary: assistantArb.map((m) => [m]), weight: 3 },
      { arbitrary: systemArb.map((m) => [m]), weight: 1 },
      { arbitrary: toolTurnArb, weight: 3 },
      { arbitrary: orphanArb.map((m) => [m]), weight: 1 },
    ),
    { maxLength: 6 },
  )
  .map((turns) => turns.flat());

const KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  image_url: ['type', 'imageUrl'],
  image_base64: ['type', 'imageBase64', 'mediaType'],
};

const partInSubset = (part: ContentPart, role: Message['role']): boolean => {
  const keys = KEYS[part.type];
  if (keys === undefined || Object.keys(part).sort().join() !== [...keys].sort().join())
    return false;
  if (part.type !== 'text' && role !== 'user') return false;
  return part.type !== 'image_url' || !/^data:[^;,]+;base64,/s.test(part.imageUrl ?? '');
};

/** The subset `fromOpenAIChat`'s TSDoc states, checked independently of the converters. */
export const inOpenAIChatSubset = (messages: readonly Message[]): boolean => {
  let turn: Map<string, string> | undefined;
  for (const m of messages) {
    const calls = m.toolCalls;
    if (m.toolResult !== undefined || m.imageBase64 !== undefined) return false;
    if (calls !== undefined) {
      if (m.role !== 'assistant' || m.content === '') return false;
      if (calls.some((c) => c.id === undefined || c.thoughtSignature !== undefined)) return false;
      if (new Set(calls.map((c) => c.id)).size !== calls.length) return false;
    } else if (m.content === null) return false;
    if (m.role === 'tool') {
      if (m.toolCallId === undefined || m.toolName !== turn?.get(m.toolCallId)) return false;
    } else if (m.toolCallId !== undefined || m.toolName !== undefined) return false;
    if (m.contentParts !== undefined) {
      if (!m.contentParts.every((p) => partInSubset(p, m.role))) return false;
      if (m.content !== joinedTexts(m.contentParts)) return false;
    }
    if (m.role !== 'tool') turn = calls && new Map(calls.map((c) => [c.id ?? '', c.name]));
  }
  return true;
};
