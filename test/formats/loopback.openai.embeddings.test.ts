/**
 * The loopback server's `POST /v1/embeddings`, driven by the real `openai` client: deterministic
 * vectors in order, as floats or base64 (the client's default, which it decodes), and OpenAI's
 * request checks.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { loopbackVector } from '../support/loopback/openaiEmbeddings';
import { rejection, useOpenAIServer } from '../support/openaiHarness';

const start = useOpenAIServer();

describe('loopback OpenAI server: embeddings', () => {
  it('answers a list of texts with one deterministic vector each, in order', async () => {
    const { client, server } = await start();
    const reply = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a', 'b', 'a'],
      encoding_format: 'float',
      dimensions: 3,
    });
    expect(reply.object).toBe('list');
    expect(reply.data).toEqual(
      ['a', 'b', 'a'].map((text, index) => ({
        object: 'embedding',
        index,
        embedding: loopbackVector(text, 3),
      })),
    );
    expect(reply.data[0]?.embedding).not.toEqual(reply.data[1]?.embedding);
    expect(server.embeddingRequests).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it("gives the model's length by default and sends base64 float32 when asked (the client's default)", async () => {
    const { client } = await start();
    const reply = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'a' });
    expect(reply.data[0]?.embedding).toEqual(
      Array.from(new Float32Array(loopbackVector('a', 1536))),
    );
  });

  const refused: readonly (readonly [string, Record<string, unknown>, string])[] = [
    [
      'an empty text',
      { model: 'm', input: ['a', ''] },
      "400 '$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    ],
    [
      'more than 2048 texts',
      { model: 'm', input: Array.from({ length: 2049 }, () => 'x') },
      "400 Invalid 'input': array too long. Expected an array with maximum length 2048, but got an array with length 2049 instead.",
    ],
    ['no model', { input: ['a'] }, "400 Missing required parameter: 'model'."],
    [
      'an empty list',
      { model: 'm', input: [] },
      "400 Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    ],
    [
      'dimensions 0',
      { model: 'm', input: 'a', dimensions: 0 },
      "400 Invalid 'dimensions': expected an integer of at least 1, got 0.",
    ],
  ];

  it.each(refused)('refuses %s with a 400', async (_, body, message) => {
    const { client, server } = await start();
    const error = await rejection(
      client.embeddings.create({ encoding_format: 'float', ...body } as never),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toBe(message);
    expect(server.embeddingRequests).toHaveLength(0);
  });
});
