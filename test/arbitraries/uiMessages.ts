/**
 * Random AI SDK `UIMessage` conversations (AI SDK 6 shapes) that the real `validateUIMessages`
 * accepts: user messages with text, images (data URL or https), other files, data and source
 * parts; assistant messages of one or more steps with text, reasoning and tool parts in every
 * state a kept conversation has (`input-available`, `output-available` with a string or JSON
 * output, `output-error`), tool call ids unique across the conversation.
 */
import fc from 'fast-check';
import type { UIMessage } from 'ai';
import { parametersArb } from './message';

/** Text of any kind, never containing the reasoning marker. */
const textArb = fc
  .string({ maxLength: 40, unit: 'binary' })
  .map((text) => text.replaceAll('SECRET', ''));

/** What reasoning parts say: the tests check it never reaches a model view. */
export const REASONING_MARKER = 'SECRET-REASONING';

const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/);
const metadataArb = fc.option(
  fc.record({ createdAt: fc.nat(), tag: fc.string({ maxLength: 8 }) }),
  {
    nil: undefined,
  },
);
const withMetadata = <T extends object>(value: T, metadata: object | undefined) =>
  metadata === undefined ? value : { ...value, metadata };

const textPartArb = fc.oneof(
  textArb.map((text) => ({ type: 'text' as const, text })),
  textArb.map((text) => ({ type: 'text' as const, text, state: 'done' as const })),
);
const imageArb = fc.oneof(
  fc.base64String({ minLength: 4, maxLength: 24 }).map((data) => ({
    type: 'file' as const,
    mediaType: 'image/png',
    url: `data:image/png;base64,${data}`,
  })),
  idArb.map((name) => ({
    type: 'file' as const,
    mediaType: 'image/jpeg',
    url: `https://example.com/${name}.jpg`,
  })),
);
const otherFileArb = idArb.map((name) => ({
  type: 'file' as const,
  mediaType: 'application/pdf',
  url: `https://example.com/${name}.pdf`,
  filename: `${name}.pdf`,
}));
const keptPartArb = fc.oneof(
  idArb.map((id) => ({
    type: 'source-url' as const,
    sourceId: id,
    url: `https://example.com/${id}`,
  })),
  idArb.map((id) => ({
    type: 'source-document' as const,
    sourceId: id,
    mediaType: 'text/plain',
    title: `doc ${id}`,
  })),
  fc.record({
    type: fc.constant('data-weather' as const),
    data: fc.record({ city: fc.string({ maxLength: 8 }) }),
  }),
);
const reasoningArb = fc.constant({
  type: 'reasoning' as const,
  text: REASONING_MARKER,
  state: 'done' as const,
});

/** A tool part without its call id (given later, unique). */
const toolPartArb = fc.oneof(
  fc
    .record({ name: fc.constantFrom('get_time', 'search'), input: parametersArb })
    .map(({ name, input }) => ({
      type: `tool-${name}`,
      state: 'input-available',
      input,
    })),
  fc
    .record({
      name: fc.constantFrom('get_time', 'search'),
      input: parametersArb,
      output: fc.oneof(
        textArb,
        fc.record({ temperature: fc.integer(), city: fc.string({ maxLength: 8 }) }),
      ),
    })
    .map(({ name, input, output }) => ({
      type: `tool-${name}`,
      state: 'output-available',
      input,
      output,
    })),
  fc
    .record({
      name: fc.constantFrom('get_time', 'search'),
      input: parametersArb,
      errorText: textArb,
    })
    .map(({ name, input, errorText }) => ({
      type: `tool-${name}`,
      state: 'output-error',
      input,
      errorText,
    })),
  fc.record({ input: parametersArb, output: textArb }).map(({ input, output }) => ({
    type: 'dynamic-tool',
    toolName: 'lookup',
    state: 'output-available',
    input,
    output,
  })),
);

const stepArb = fc
  .tuple(
    fc.option(reasoningArb, { nil: undefined }),
    fc.array(fc.oneof(textPartArb, toolPartArb, keptPartArb), { minLength: 1, maxLength: 4 }),
  )
  .map(([reasoning, parts]) => [
    { type: 'step-start' },
    ...(reasoning === undefined ? [] : [reasoning]),
    ...parts,
  ]);

type Draft = { role: 'user' | 'assistant'; parts: Record<string, unknown>[]; metadata?: object };

const userArb = fc
  .record({
    parts: fc.array(
      fc.oneof({ arbitrary: textPartArb, weight: 4 }, imageArb, otherFileArb, keptPartArb),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
    metadata: metadataArb,
  })
  .map(({ parts, metadata }): Draft => withMetadata({ role: 'user' as const, parts }, metadata));

const assistantArb = fc
  .record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }), metadata: metadataArb })
  .map(({ steps, metadata }): Draft =>
    withMetadata({ role: 'assistant' as const, parts: steps.flat() }, metadata),
  );

/** A conversation: user and assistant messages taking turns, unique ids and tool call ids. */
export const uiConversationArb: fc.Arbitrary<UIMessage[]> = fc
  .array(fc.tuple(userArb, assistantArb), { minLength: 1, maxLength: 4 })
  .map((turns) => {
    let calls = 0;
    return turns.flat().map((draft, i) => ({
      id: `m${i}`,
      ...draft,
      parts: draft.parts.map((part) =>
        String(part['type']).startsWith('tool-') || part['type'] === 'dynamic-tool'
          ? { ...part, toolCallId: `call-${calls++}` }
          : part,
      ),
    })) as unknown as UIMessage[];
  });
