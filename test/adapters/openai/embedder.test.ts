/**
 * `createOpenAIEmbedder` against the loopback OpenAI server, through the real `openai` client:
 * batches, deduplication, order by `index`, synchronous answers from a private cache, the
 * not-prepared error, and aborts.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { isConversationMemoryError } from 'conversation-memory';
import {
  createOpenAIEmbedder,
  EmbeddingNotPreparedError,
  EmbeddingRequestError,
} from 'conversation-memory/openai';
import { DIMENSIONS, useEmbeddingsServer, vectorOf } from '../../support/embeddingsHarness';
import { rejection } from '../../support/openaiHarness';
import { inputTexts } from '../../support/loopback/openaiEmbeddings';

const start = useEmbeddingsServer();

describe('createOpenAIEmbedder: prepare, then embed', () => {
  it("fetches the texts' vectors and answers with them synchronously", async () => {
    const { server, embedder } = await start();
    await embedder.prepare(['hello', 'world']);
    expect(embedder.embed('hello')).toEqual(vectorOf('hello'));
    expect(embedder.embed('world')).toEqual(vectorOf('world'));
    expect(server.embeddingRequests).toEqual([
      {
        model: 'text-embedding-3-small',
        input: ['hello', 'world'],
        encoding_format: 'float',
        dimensions: DIMENSIONS,
      },
    ]);
  });

  it('sends no dimensions when none is set, and takes the model given', async () => {
    const { server, client } = await start();
    const embedder = createOpenAIEmbedder({ client, model: 'text-embedding-3-large' });
    await embedder.prepare(['hello']);
    expect(server.embeddingRequests[0]).not.toHaveProperty('dimensions');
    expect(server.embeddingRequests[0]?.model).toBe('text-embedding-3-large');
    expect(embedder.embed('hello')).toHaveLength(3072);
    expect(embedder).toMatchObject({ model: 'text-embedding-3-large', dimensions: undefined });
  });

  it('answers with a copy: changing a result changes nothing cached', async () => {
    const { embedder } = await start();
    await embedder.prepare(['hello']);
    const vector = embedder.embed('hello') as number[];
    vector[0] = 42;
    vector.push(1);
    expect(embedder.embed('hello')).toEqual(vectorOf('hello'));
    expect(embedder.exportCache().entries[0]?.embedding).toEqual(vectorOf('hello'));
  });

  it('works as a standalone function (no this), as registerEmbedder calls it', async () => {
    const { embedder } = await start();
    await embedder.prepare(['hello']);
    const { embed, has } = embedder;
    expect(embed('hello')).toEqual(vectorOf('hello'));
    expect([has('hello'), has('other')]).toEqual([true, false]);
  });
});

describe('createOpenAIEmbedder: batches', () => {
  it('sends at most batchSize texts per request, in order', async () => {
    const { embedder, inputs } = await start({}, { batchSize: 2 });
    await embedder.prepare(['a', 'b', 'c', 'd', 'e']);
    expect(inputs()).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    for (const text of ['a', 'b', 'c', 'd', 'e'])
      expect(embedder.embed(text)).toEqual(vectorOf(text));
  });

  it('sends 2048 texts per request by default', async () => {
    const { embedder, inputs } = await start();
    const texts = Array.from({ length: 2049 }, (_, i) => `t${i}`);
    await embedder.prepare(texts);
    expect(inputs().map((input) => input.length)).toEqual([2048, 1]);
  });

  it('keeps a request within maxBatchBytes of UTF-8 (a longer text goes alone)', async () => {
    const { embedder, inputs } = await start({}, { maxBatchBytes: 6 });
    // 'é' is 2 bytes: 'ééé' is 6 bytes, 'aaaaaaaa' 8 (over the cap, alone).
    await embedder.prepare(['ab', 'ééé', 'aaaaaaaa', 'x', 'y']);
    expect(inputs()).toEqual([['ab'], ['ééé'], ['aaaaaaaa'], ['x', 'y']]);
  });

  it('fetches each missing text once: duplicates and cached texts are not sent', async () => {
    const { embedder, inputs } = await start();
    await embedder.prepare(['a', 'b', 'a', 'b', 'a']);
    await embedder.prepare(['b', 'c', 'c']);
    await embedder.prepare(['a', 'c']);
    expect(inputs()).toEqual([['a', 'b'], ['c']]);
  });

  it('skips empty texts (the API refuses them) and says so when one is embedded', async () => {
    const { embedder, inputs, server } = await start();
    await embedder.prepare(['', 'a', '']);
    await embedder.prepare(['']);
    expect(inputs()).toEqual([['a']]);
    expect(server.rejected).toEqual([]);
    expect(() => embedder.embed('')).toThrow(/no vector for "" \(0 characters\): the API refuses/);
  });

  it('orders the vectors by index, not by their place in the reply', async () => {
    const { embedder } = await start({
      respondEmbeddings: ({ body }) => ({
        data: inputTexts(body)
          .map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }))
          .reverse(),
      }),
    });
    await embedder.prepare(['a', 'b', 'c']);
    expect(['a', 'b', 'c'].map((text) => embedder.embed(text))).toEqual(
      ['a', 'b', 'c'].map(vectorOf),
    );
  });

  it('keeps the first vector of a text when two prepare calls fetch it at once', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { embedder } = await start({
      // The second request's reply (another vector for the same text) comes after the first.
      respondEmbeddings: async ({ index }) => {
        if (index === 1) await held;
        return { vectors: [[index + 1, 0, 0, 0]] };
      },
    });
    const first = embedder.prepare(['a']);
    const second = embedder.prepare(['a']);
    await first;
    expect(embedder.embed('a')).toEqual([1, 0, 0, 0]);
    release();
    await second;
    expect(embedder.embed('a')).toEqual([1, 0, 0, 0]);
    expect(embedder.exportCache().entries).toEqual([{ text: 'a', embedding: [1, 0, 0, 0] }]);
  });
});

describe('createOpenAIEmbedder: a text never prepared', () => {
  it('throws EmbeddingNotPreparedError naming the text, escaped and shortened', async () => {
    const { embedder } = await start();
    const text = `line one\nline two \u001b[31m ${'x'.repeat(100)}`;
    let error: unknown;
    try {
      embedder.embed(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EmbeddingNotPreparedError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_EMBEDDING_NOT_PREPARED');
    const { message, text: whole } = error as EmbeddingNotPreparedError;
    expect(whole).toBe(text);
    expect(message).toContain(
      'createOpenAIEmbedder.embed: no vector for "line one\\nline two \\u001b[31m x',
    );
    expect(message).toContain(`..." (${text.length} characters): prepare it first`);
    expect(message).not.toContain('\n');
    expect(message).not.toContain('\u001b');
    expect(message.length).toBeLessThan(250);
  });

  it('throws for a text prepared in another embedder', async () => {
    const { embedder, client } = await start();
    await embedder.prepare(['hello']);
    const other = createOpenAIEmbedder({ client, dimensions: DIMENSIONS });
    expect(() => other.embed('hello')).toThrow(EmbeddingNotPreparedError);
  });
});

describe('createOpenAIEmbedder: abort', () => {
  it('rejects with the reason of an aborted signal and sends nothing', async () => {
    const { embedder, server } = await start();
    const reason = new Error('stop');
    const error = await rejection(embedder.prepare(['a'], { signal: AbortSignal.abort(reason) }));
    expect(error).toBe(reason);
    expect(server.embeddingRequests).toEqual([]);
  });

  it('rejects with the reason of an aborted signal even when every text is cached', async () => {
    const { embedder } = await start();
    await embedder.prepare(['a']);
    const reason = new Error('stop');
    expect(await rejection(embedder.prepare(['a'], { signal: AbortSignal.abort(reason) }))).toBe(
      reason,
    );
  });

  it('stops in the middle of a request: the reason, no later batch, nothing of it cached', async () => {
    const controller = new AbortController();
    let held: () => void = () => undefined;
    const { embedder, inputs } = await start(
      {
        respondEmbeddings: ({ index }) =>
          index === 1
            ? new Promise((resolve) => {
                held = () => resolve(undefined);
                controller.abort('user left');
              })
            : undefined,
      },
      { batchSize: 1 },
    );
    const error = await rejection(embedder.prepare(['a', 'b', 'c'], { signal: controller.signal }));
    held();
    expect(error).toBe('user left');
    expect(inputs()).toEqual([['a'], ['b']]);
    expect(['a', 'b', 'c'].map((text) => embedder.has(text))).toEqual([true, false, false]);
    await embedder.prepare(['a', 'b', 'c']);
    expect(inputs().slice(2)).toEqual([['b'], ['c']]);
  });
});

describe('createOpenAIEmbedder: failed requests', () => {
  it('wraps an HTTP 500 in EmbeddingRequestError with the cause, and caches nothing of it', async () => {
    const { embedder } = await start(
      {
        respondEmbeddings: ({ index }) =>
          index === 1
            ? {
                raw: { error: { message: 'The server had an error', type: 'server_error' } },
                status: 500,
              }
            : undefined,
      },
      { batchSize: 2 },
    );
    const error = await rejection(embedder.prepare(['a', 'b', 'c', 'd']));
    expect(error).toBeInstanceOf(EmbeddingRequestError);
    expect(isConversationMemoryError(error) && error.code).toBe('CM_EMBEDDING_REQUEST');
    expect((error as EmbeddingRequestError).status).toBe(500);
    expect((error as Error).cause).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toBe(
      '[conversation-memory] createOpenAIEmbedder.prepare: the text-embedding-3-small embeddings request 2 of 2 (2 texts) failed: Error: 500 The server had an error',
    );
    expect(['a', 'b', 'c', 'd'].map((text) => embedder.has(text))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("wraps the API's 400 (its message escaped)", async () => {
    const { embedder } = await start({
      respondEmbeddings: () => ({
        raw: { error: { message: 'too long\n\u001b[2J', type: 'invalid_request_error' } },
        status: 400,
      }),
    });
    const error = await rejection(embedder.prepare(['a']));
    expect(error).toBeInstanceOf(EmbeddingRequestError);
    expect((error as Error).cause).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as EmbeddingRequestError).status).toBe(400);
    expect((error as Error).message).toMatch(/failed: Error: 400 too long\\n\\u001b\[2J$/);
  });

  it('wraps a connection failure', async () => {
    // Port 1 on the loopback: nothing listens there, the connection is refused.
    const client = new OpenAI({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', maxRetries: 0 });
    const embedder = createOpenAIEmbedder({ client });
    const error = await rejection(embedder.prepare(['a']));
    expect(error).toBeInstanceOf(EmbeddingRequestError);
    expect((error as Error).cause).toBeInstanceOf(OpenAI.APIConnectionError);
    expect((error as EmbeddingRequestError).status).toBeUndefined();
    expect(embedder.has('a')).toBe(false);
  });
});
