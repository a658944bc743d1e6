/**
 * `createOpenAIEmbedder` reads each embeddings reply as hostile input: a reply that is not one
 * usable vector per text rejects with `ProviderResponseError` naming the path and the value, and
 * nothing of its batch is cached (batches before it stay).
 */
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError, ProviderResponseError } from 'conversation-memory';
import { createOpenAIEmbedder } from 'conversation-memory/openai';
import type { ScriptedEmbeddingsReply } from '../../support/loopback/openaiServer';
import { useEmbeddingsServer, vectorOf } from '../../support/embeddingsHarness';
import { rejection } from '../../support/openaiHarness';

const start = useEmbeddingsServer();

const item = (index: unknown, embedding: unknown) => ({ object: 'embedding', index, embedding });

/** Hostile replies to a request for ['c', 'd'], and a problem each must report. */
const hostile: readonly (readonly [string, ScriptedEmbeddingsReply, string])[] = [
  [
    'an item without index',
    { data: [item(0, vectorOf('c')), { object: 'embedding', embedding: vectorOf('d') }] },
    'data[1].index: expected a whole number from 0 to 1, got undefined',
  ],
  [
    'an index twice',
    { data: [item(1, vectorOf('c')), item(1, vectorOf('d'))] },
    'data[1].index: 1 again (data[0] has it)',
  ],
  ['an index left out', { data: [item(1, vectorOf('d'))] }, 'data: no item has index 0'],
  [
    'an extra item',
    { data: [item(0, vectorOf('c')), item(1, vectorOf('d')), item(2, vectorOf('e'))] },
    'data[2].index: expected a whole number from 0 to 1, got 2',
  ],
  [
    'a fractional index',
    { data: [item(0, vectorOf('c')), item(0.5, vectorOf('d'))] },
    'data[1].index: expected a whole number from 0 to 1, got 0.5',
  ],
  [
    'a string index',
    { data: [item(0, vectorOf('c')), item('1', vectorOf('d'))] },
    'data[1].index: expected a whole number from 0 to 1, got "1"',
  ],
  [
    '"NaN" in a vector',
    { data: [item(0, vectorOf('c')), item(1, [0.1, 'NaN', 0.2, 0.3])] },
    'data[1].embedding[1]: expected a finite number, got "NaN"',
  ],
  [
    'an overflowing number (1e999 parses to Infinity)',
    { raw: '{"data":[{"index":0,"embedding":[1,2,3,4]},{"index":1,"embedding":[1,1e999,3,4]}]}' },
    'data[1].embedding[1]: expected a finite number, got Infinity',
  ],
  [
    'null in a vector',
    { data: [item(0, [null, 0, 0, 0]), item(1, vectorOf('d'))] },
    'data[0].embedding[0]: expected a finite number, got null',
  ],
  [
    'vectors of two lengths',
    { data: [item(0, [0.1, 0.2, 0.3, 0.4]), item(1, [0.1, 0.2, 0.3])] },
    'data[1].embedding: expected 4 numbers (the dimensions asked for), got 3',
  ],
  [
    'vectors of another length than asked for',
    {
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
    },
    'data[0].embedding: expected 4 numbers (the dimensions asked for), got 2',
  ],
  [
    'an empty vector',
    { data: [item(0, []), item(1, vectorOf('d'))] },
    'data[0].embedding: expected a non-empty array of numbers, got an array of length 0',
  ],
  [
    'a base64 string where numbers were asked for',
    { data: [item(0, 'AACAPwAAAEA='), item(1, vectorOf('d'))] },
    'data[0].embedding: expected a non-empty array of numbers, got "AACAPwAAAEA="',
  ],
  [
    'an item that is not an object',
    { data: [item(0, vectorOf('c')), [1, vectorOf('d')]] },
    'data[1]: expected an object with index and embedding, got an array of length 2',
  ],
  [
    'no data',
    { raw: { object: 'list', model: 'm' } },
    'data: expected an array of embeddings, got undefined',
  ],
  [
    'a body that is not an object',
    { raw: 'Service temporarily unavailable', contentType: 'text/plain' },
    '(root): expected an object with data, got "Service temporarily unavailable"',
  ],
];

describe('createOpenAIEmbedder: a reply that is not one usable vector per text', () => {
  it.each(hostile)(
    'rejects %s, naming it, and caches nothing of the batch',
    async (_, reply, problem) => {
      const { embedder } = await start(
        { respondEmbeddings: ({ index }) => (index === 1 ? reply : undefined) },
        { batchSize: 2 },
      );
      const error = await rejection(embedder.prepare(['a', 'b', 'c', 'd']));
      expect(error).toBeInstanceOf(ProviderResponseError);
      expect(isConversationMemoryError(error) && error.code).toBe('CM_PROVIDER_RESPONSE');
      expect((error as ProviderResponseError).problems).toContain(problem);
      expect((error as Error).message).toContain(
        'createOpenAIEmbedder.prepare: the text-embedding-3-small embeddings request 2 of 2 (2 texts): the reply is not a usable list of embeddings: ',
      );
      expect(['a', 'b', 'c', 'd'].map((text) => embedder.has(text))).toEqual([
        true,
        true,
        false,
        false,
      ]);
    },
  );

  it('holds later vectors to the length of the cached ones (no dimensions set)', async () => {
    const { client, server } = await start({
      respondEmbeddings: ({ index }) => ({ vectors: [index === 0 ? [1, 0, 0] : [1, 0]] }),
    });
    const embedder = createOpenAIEmbedder({ client });
    await embedder.prepare(['a']);
    const error = await rejection(embedder.prepare(['b']));
    expect((error as ProviderResponseError).problems).toEqual([
      'data[0].embedding: expected 3 numbers (as the vectors cached before), got 2',
    ]);
    expect(embedder.has('b')).toBe(false);
    expect(server.embeddingRequests).toHaveLength(2);
  });

  it('rejects a JSON body that does not parse, with the parser error as cause', async () => {
    const { embedder } = await start({ respondEmbeddings: () => ({ raw: '{"data": [' }) });
    const error = await rejection(embedder.prepare(['a']));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toContain(
      'request 1 of 1 (1 texts): the reply is not valid JSON',
    );
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(embedder.has('a')).toBe(false);
  });

  it('lists at most 20 problems and counts them all', async () => {
    const { embedder } = await start({
      respondEmbeddings: ({ body }) => ({
        data: (body.input as string[]).map((_, index) => item(index, [NaN])),
      }),
    });
    const texts = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const error = (await rejection(embedder.prepare(texts))) as ProviderResponseError;
    // NaN is sent as null (JSON has no NaN).
    expect(error.problems).toHaveLength(20);
    expect(error.problems[0]).toBe('data[0].embedding[0]: expected a finite number, got null');
    expect(error.problemCount).toBe(30);
    expect(error.message).toMatch(/ \(and 10 more\)$/);
  });
});
