import { either as E } from 'fp-ts';
import {
  MemoryArgumentError,
  type MemoryDecodeError,
  ProviderResponseError,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readAdapterOptions } from '../shared/readAdapterOptions';
import { EmbeddingNotPreparedError, EmbeddingRequestError } from '../../library';
import { embeddingBatches } from './embeddingBatches';
import {
  decodeEmbeddingCache,
  EMBEDDING_CACHE_FORMAT,
  type EmbeddingCacheDict,
} from './embeddingCache';
import { type OpenAIEmbedderOptions, readEmbedderOptions } from './embedderOptions';
import { readEmbeddings } from './readEmbeddings';

/**
 * Options of an {@link OpenAIEmbedder}'s `prepare`.
 *
 * @example
 * ```ts
 * const options: PrepareEmbeddingsOptions = { signal: AbortSignal.timeout(10_000) };
 * ```
 */
export interface PrepareEmbeddingsOptions {
  /** Aborts the requests: `prepare` then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * An embedder backed by OpenAI's embeddings API that fetches ahead and answers from a cache, made
 * by {@link createOpenAIEmbedder}. `embed` is synchronous and deterministic (a text's vector never
 * changes once cached), as an embedder registered with `registerEmbedder` must be.
 *
 * @example
 * ```ts
 * const embedder: OpenAIEmbedder = createOpenAIEmbedder({ client: new OpenAI() });
 * await embedder.prepare(['hello']);
 * embedder.embed('hello'); // a copy of the cached vector
 * ```
 */
export interface OpenAIEmbedder {
  /** The model the vectors come from. */
  readonly model: string;
  /** The `dimensions` option sent with each request, `undefined` for the model's own. */
  readonly dimensions: number | undefined;
  /**
   * A copy of the cached vector of `text` (changing it changes nothing cached). A standalone
   * function (no `this`), to pass to `registerEmbedder`.
   *
   * @throws EmbeddingNotPreparedError when `text` was never prepared nor imported
   */
  readonly embed: (text: string) => readonly number[];
  /** Whether `embed(text)` has a vector to answer with. */
  readonly has: (text: string) => boolean;
  /**
   * Fetches the vectors of the texts not cached yet (each text once; empty texts are skipped, as
   * the API refuses them), in batches, one request after the other.
   */
  readonly prepare: (texts: readonly string[], options?: PrepareEmbeddingsOptions) => Promise<void>;
  /** The cache as plain JSON data, to save beside a recorded conversation. */
  readonly exportCache: () => EmbeddingCacheDict;
  /**
   * Adds the vectors of an exported cache (the object or its JSON text); all or nothing.
   * Returns how many texts were new, or a `MemoryDecodeError` naming each problem's path.
   */
  readonly importCache: (cache: unknown) => E.Either<MemoryDecodeError, number>;
}

const API = 'createOpenAIEmbedder';

/** The arguments of `prepare`, checked (a problem names `texts[i]` or the option, and the value); returns the signal. */
const readPrepareArguments = (texts: unknown, options: unknown): AbortSignal | undefined => {
  const api = `${API}.prepare`;
  if (!Array.isArray(texts)) {
    throw new MemoryArgumentError(
      api,
      `texts must be an array of strings, received ${describeValue(texts)}`,
    );
  }
  for (let i = 0; i < texts.length; i++) {
    const text: unknown = texts[i];
    if (typeof text !== 'string') {
      throw new MemoryArgumentError(
        api,
        `texts[${i}] must be a string, received ${describeValue(text)}`,
      );
    }
  }
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const { signal } = readAdapterOptions(options, ['signal'], api, {
    example: '{ signal }',
    error: MemoryArgumentError,
  });
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new MemoryArgumentError(
      api,
      `options.signal must be an AbortSignal, received ${describeValue(signal)}`,
    );
  }
  return signal;
};

/**
 * An embedder (the `Embedder` that `registerEmbedder` takes) backed by OpenAI's embeddings API, through the `openai`
 * client you pass (an optional peer dependency). An embedder must be synchronous and
 * deterministic, and a network call is neither, so this one fetches ahead and answers from a cache:
 *
 * - `prepare(texts)` fetches the texts it has no vector for, each once (empty texts are skipped:
 *   the API refuses them), in batches of at most `batchSize` texts and `maxBatchBytes` bytes, one
 *   request after the other, with `encoding_format: 'float'` (and `dimensions` when set). Each
 *   reply is read as hostile input: one item per text, each `index` once, vectors of finite
 *   numbers all of one length (the cache's, and `dimensions` when set), ordered by `index`. A bad
 *   reply rejects with `ProviderResponseError` naming each path and value, and nothing of its batch
 *   is cached; a failed request (HTTP error, connection, timeout) rejects with
 *   `EmbeddingRequestError` whose `cause` is the client's error; an abort rejects with the
 *   signal's reason. Batches that succeeded before stay cached, so calling `prepare` again fetches
 *   only the rest.
 * - `embed(text)` returns a copy of the cached vector (about 1.7 µs for 1,536 numbers; the cache
 *   keeps plain arrays, as freezing an array of doubles makes V8 box each number: about 3× the
 *   memory and 4× the time to store); for a text never prepared it throws
 *   `EmbeddingNotPreparedError`. A cached vector never changes (a later fetch of the same text, as
 *   by two `prepare` calls at once, is dropped): replays see the same vectors.
 * - `exportCache()` and `importCache(json)` carry the vectors to another process or a replay,
 *   offline.
 *
 * @param options - `client`, and optionally `model`, `dimensions`, `batchSize`, `maxBatchBytes`
 * @returns the embedder: `embed`, `has`, `prepare`, `exportCache`, `importCache`
 * @throws MemoryArgumentError when `client` is not an openai client or an option is invalid
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { createOpenAIEmbedder } from 'conversation-memory/openai';
 *
 * const embedder = createOpenAIEmbedder({ client: new OpenAI(), model: 'text-embedding-3-small' });
 * await embedder.prepare(messages.map(embeddingText));
 * registerEmbedder('openai-small', embedder.embed);
 * ```
 */
export const createOpenAIEmbedder = (options: OpenAIEmbedderOptions): OpenAIEmbedder => {
  const { client, model, dimensions, batchSize, maxBatchBytes } = readEmbedderOptions(options);
  // Private: every vector in it is an array no caller holds (results and exports are copies).
  const cache = new Map<string, readonly number[]>();
  let length: number | undefined;

  const embed = (text: string): readonly number[] => {
    const vector = cache.get(text);
    if (vector !== undefined) return vector.slice();
    throw new EmbeddingNotPreparedError(
      `${API}.embed`,
      text,
      text === ''
        ? 'the API refuses to embed an empty text, so prepare skips it; leave empty texts out'
        : `prepare it first (await embedder.prepare([text])), or import a cache that holds it`,
    );
  };

  /** The length every new vector must have, and why; `undefined` while nothing fixes it. */
  const expectedLength = () => {
    if (dimensions !== undefined) return { length: dimensions, why: 'the dimensions asked for' };
    return length === undefined ? undefined : { length, why: 'as the vectors cached before' };
  };

  const store = (texts: readonly string[], vectors: readonly (readonly number[])[]): void => {
    texts.forEach((text, i) => {
      const vector = vectors[i];
      if (vector === undefined || cache.has(text)) return;
      cache.set(text, vector);
      length ??= vector.length;
    });
  };

  const prepare = async (
    texts: readonly string[],
    prepareOptions?: PrepareEmbeddingsOptions,
  ): Promise<void> => {
    const signal = readPrepareArguments(texts, prepareOptions);
    signal?.throwIfAborted();
    const missing = [...new Set(texts)].filter((text) => text !== '' && !cache.has(text));
    const batches = embeddingBatches(missing, batchSize, maxBatchBytes);
    for (const [i, batch] of batches.entries()) {
      const label = `the ${model} embeddings request ${i + 1} of ${batches.length} (${batch.length} texts)`;
      let reply: unknown;
      try {
        reply = await client.embeddings.create(
          {
            model,
            input: batch,
            encoding_format: 'float',
            ...(dimensions === undefined ? {} : { dimensions }),
          },
          signal === undefined ? undefined : { signal },
        );
      } catch (error) {
        signal?.throwIfAborted();
        if (error instanceof SyntaxError) {
          throw new ProviderResponseError(
            `${API}.prepare`,
            `${label}: the reply is not valid JSON (the client could not parse its body; see cause)`,
            { cause: error },
          );
        }
        throw new EmbeddingRequestError(`${API}.prepare`, label, error);
      }
      signal?.throwIfAborted();
      const read = readEmbeddings(reply, batch.length, expectedLength());
      if ('problems' in read) {
        const { problems, problemCount } = read;
        const more =
          problemCount > problems.length ? ` (and ${problemCount - problems.length} more)` : '';
        throw new ProviderResponseError(
          `${API}.prepare`,
          `${label}: the reply is not a usable list of embeddings: ${problems.join('; ')}${more}`,
          { problems, problemCount },
        );
      }
      store(batch, read.vectors);
    }
  };

  const exportCache = (): EmbeddingCacheDict => ({
    format: EMBEDDING_CACHE_FORMAT,
    version: 1,
    model,
    dimensions: dimensions ?? null,
    entries: [...cache].map(([text, embedding]) => ({ text, embedding: embedding.slice() })),
  });

  const importCache = (input: unknown): E.Either<MemoryDecodeError, number> => {
    const decoded = decodeEmbeddingCache(input, { model, dimensions, length, cached: cache });
    if (decoded._tag === 'Left') return decoded;
    for (const { text, embedding } of decoded.right) {
      cache.set(text, embedding);
      length ??= embedding.length;
    }
    return E.right(decoded.right.length);
  };

  return {
    model,
    dimensions,
    embed,
    has: (text: string) => cache.has(text),
    prepare,
    exportCache,
    importCache,
  };
};
