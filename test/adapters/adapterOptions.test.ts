import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import OpenAI from 'openai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  AgentConfigError,
  isConversationMemoryError,
  MemoryArgumentError,
} from 'conversation-memory';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { createOpenAIEmbedder, openaiProvider } from 'conversation-memory/openai';
import { otelObserver } from 'conversation-memory/otel';
import { createConversationsSlice } from 'conversation-memory/redux';
import { describeValue } from '../../src/util/describeValue';

/**
 * Every adapter refuses options that are not an object with one error (src/adapters/shared/
 * readAdapterOptions.ts): of the call's class for its options (`AgentConfigError` for the
 * provider factories and the observer, as docs/design.md says, `aiSdkProvider` included;
 * `MemoryArgumentError` for the embedder and the Redux slice), with the text
 * `options must be an object such as <example>, received <what it is>`, where a string's text is
 * never echoed (an API key passed in place of `{ client }`). The Zustand store's options are a
 * memory config, refused by `createMemory` itself (`MemoryConfigError`).
 */
type ErrorClass = abstract new (...args: never[]) => Error;
interface Row {
  readonly api: string;
  readonly run: (options: unknown) => unknown;
  readonly error: ErrorClass;
  readonly example: string;
  /** `undefined` is refused too (the call has no default options). */
  readonly required: boolean;
}

const openai = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9' });
const embedder = createOpenAIEmbedder({ client: openai });
const ROWS: readonly Row[] = [
  {
    api: 'openaiProvider',
    run: (o) => openaiProvider(o as never),
    error: AgentConfigError,
    example: '{ client }',
    required: true,
  },
  {
    api: 'anthropicProvider',
    run: (o) => anthropicProvider(o as never),
    error: AgentConfigError,
    example: '{ client }',
    required: true,
  },
  {
    api: 'aiSdkProvider',
    run: (o) => aiSdkProvider(o as never),
    error: AgentConfigError,
    example: '{ model }',
    required: true,
  },
  {
    api: 'otelObserver',
    run: (o) => otelObserver(o as never),
    error: AgentConfigError,
    example: '{ recordContent: true }',
    required: false,
  },
  {
    api: 'createOpenAIEmbedder',
    run: (o) => createOpenAIEmbedder(o as never),
    error: MemoryArgumentError,
    example: '{ client }',
    required: true,
  },
  {
    api: 'createOpenAIEmbedder.prepare',
    run: (o) => embedder.prepare([''], o as never),
    error: MemoryArgumentError,
    example: '{ signal }',
    required: false,
  },
  {
    api: 'createConversationsSlice',
    run: (o) => createConversationsSlice(o as never),
    error: MemoryArgumentError,
    example: '{ defaultConfig }',
    required: false,
  },
];

/** Every kind of value that is not an options object. */
const notAnObjectArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.string(),
  fc.stringMatching(/^sk-[A-Za-z0-9]{24,40}$/),
  fc.constant(Symbol('options')),
  fc.constant(() => ({ client: openai })),
  fc.array(fc.anything(), { maxLength: 3 }),
);

/** What the error says the value is: a string's text is never shown. */
const shown = (value: unknown): string =>
  typeof value === 'string'
    ? value === ''
      ? 'an empty string'
      : 'a string'
    : describeValue(value);

const thrownBy = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
};

describe('adapter options that are not an object', () => {
  it.each(ROWS.map((row) => [row.api, row] as const))('%s: one error, one text', async (_, row) => {
    await fc.assert(
      fc.asyncProperty(notAnObjectArb, async (value) => {
        const error = await thrownBy(() => row.run(value));
        expect(error).toBeInstanceOf(row.error);
        expect(isConversationMemoryError(error)).toBe(true);
        expect((error as Error).message).toBe(
          `[conversation-memory] ${row.api}: options must be an object such as ${row.example}, received ${shown(value)}`,
        );
        if (typeof value === 'string' && value.length > 1) {
          expect((error as Error).message).not.toContain(value);
        }
      }),
      { numRuns: 60 },
    );
  });

  it.each(ROWS.filter((row) => row.required).map((row) => [row.api, row] as const))(
    '%s: no options at all is refused the same way',
    async (_, row) => {
      const error = await thrownBy(() => row.run(undefined));
      expect(error).toBeInstanceOf(row.error);
      expect((error as Error).message).toBe(
        `[conversation-memory] ${row.api}: options must be an object such as ${row.example}, received undefined`,
      );
    },
  );

  it('the providers still take their options (the check refuses only what is not an object)', () => {
    expect(openaiProvider({ client: openai }).name).toBe('openai');
    expect(anthropicProvider({ client: new Anthropic({ apiKey: 'k' }) }).name).toBe('anthropic');
    expect(aiSdkProvider({ model: new MockLanguageModelV3() }).name).toBe('ai-sdk');
  });
});
