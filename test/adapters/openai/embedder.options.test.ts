/**
 * `createOpenAIEmbedder` and `prepare` refuse invalid arguments at once, naming the option (or
 * `texts[i]`) and the value received, escaped.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, MemoryArgumentError } from 'conversation-memory';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from 'conversation-memory/openai';
import { rejection } from '../../support/openaiHarness';

const client = new OpenAI({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', maxRetries: 0 });

const refused: readonly (readonly [string, unknown, string])[] = [
  ['no options', undefined, 'options must be an object such as { client }, received undefined'],
  [
    'no client',
    {},
    'options.client must be an openai client (new OpenAI({ apiKey })), received undefined',
  ],
  [
    'a client without embeddings',
    { client: { chat: {} } },
    'options.client must be an openai client (new OpenAI({ apiKey })), received an object',
  ],
  [
    'an empty model',
    { client, model: '' },
    'options.model must be a non-empty string, received ""',
  ],
  [
    'dimensions 0',
    { client, dimensions: 0 },
    'options.dimensions must be a whole number ≥ 1, received 0',
  ],
  [
    'fractional dimensions',
    { client, dimensions: 1.5 },
    'options.dimensions must be a whole number ≥ 1, received 1.5',
  ],
  [
    'batchSize 0',
    { client, batchSize: 0 },
    'options.batchSize must be a whole number from 1 to 2048, received 0',
  ],
  [
    'batchSize over the API limit',
    { client, batchSize: 2049 },
    'options.batchSize must be a whole number from 1 to 2048, received 2049',
  ],
  [
    'maxBatchBytes as a string',
    { client, maxBatchBytes: '1000' },
    'options.maxBatchBytes must be a whole number ≥ 1, received "1000"',
  ],
];

describe('createOpenAIEmbedder: options', () => {
  it.each(refused)('refuses %s', (_, options, what) => {
    let error: unknown;
    try {
      createOpenAIEmbedder(options as OpenAIEmbedderOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_ARGUMENT');
    expect((error as Error).message).toBe(`[conversation-memory] createOpenAIEmbedder: ${what}`);
  });

  it('refuses an unknown option and suggests the one meant', () => {
    expect(() =>
      createOpenAIEmbedder({ client, batch_size: 10 } as unknown as OpenAIEmbedderOptions),
    ).toThrow(/options\.batch_size.*batchSize/);
  });

  it('takes the defaults', () => {
    const embedder = createOpenAIEmbedder({ client });
    expect(embedder).toMatchObject({ model: 'text-embedding-3-small', dimensions: undefined });
  });
});

describe('createOpenAIEmbedder: prepare arguments', () => {
  const embedder = createOpenAIEmbedder({ client });
  const bad: readonly (readonly [string, () => Promise<void>, string])[] = [
    [
      'texts not an array',
      () => embedder.prepare('hello' as never),
      'texts must be an array of strings, received "hello"',
    ],
    [
      'a text not a string',
      () => embedder.prepare(['a', 7 as never]),
      'texts[1] must be a string, received 7',
    ],
    [
      'options not an object',
      () => embedder.prepare(['a'], 5 as never),
      'options must be an object such as { signal }, received 5',
    ],
    [
      'a signal that is not an AbortSignal',
      () => embedder.prepare(['a'], { signal: 'stop\n' as never }),
      'options.signal must be an AbortSignal, received "stop\\n"',
    ],
  ];

  it.each(bad)('rejects %s before any request', async (_, call, what) => {
    const error = await rejection(call());
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect((error as Error).message).toBe(
      `[conversation-memory] createOpenAIEmbedder.prepare: ${what}`,
    );
  });
});
