/**
 * `exportCache` / `importCache`: a prepared embedder's vectors carried to another (a replay,
 * offline), exactly; an import is checked against the importing embedder, all or nothing.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { MemoryDecodeError } from 'conversation-memory';
import { createOpenAIEmbedder, type EmbeddingCacheDict } from 'conversation-memory/openai';
import { DIMENSIONS, useEmbeddingsServer, vectorOf } from '../../support/embeddingsHarness';

const start = useEmbeddingsServer();

/** An embedder whose client can reach nothing (port 1 refuses): it can only answer from cache. */
const offline = (options: { model?: string; dimensions?: number } = {}) =>
  createOpenAIEmbedder({
    client: new OpenAI({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', maxRetries: 0 }),
    dimensions: DIMENSIONS,
    ...options,
  });

const cacheOf = (entries: EmbeddingCacheDict['entries'], extra: object = {}): unknown => ({
  format: 'conversation-memory/embeddings',
  version: 1,
  model: 'text-embedding-3-small',
  dimensions: DIMENSIONS,
  entries,
  ...extra,
});

const problemsOf = (result: ReturnType<ReturnType<typeof offline>['importCache']>) => {
  if (result._tag === 'Right') throw new Error(`expected a Left, got Right(${result.right})`);
  expect(result.left).toBeInstanceOf(MemoryDecodeError);
  expect(result.left.message).toMatch(
    /^\[conversation-memory\] createOpenAIEmbedder\.importCache: invalid input:\n {2}/,
  );
  return result.left.problems;
};

describe('exportCache and importCache', () => {
  it('replays the exact vectors offline, through JSON', async () => {
    const { embedder } = await start();
    await embedder.prepare(['b', 'a', 'hello 🌍']);
    const exported = embedder.exportCache();
    expect(exported).toEqual({
      format: 'conversation-memory/embeddings',
      version: 1,
      model: 'text-embedding-3-small',
      dimensions: DIMENSIONS,
      entries: ['b', 'a', 'hello 🌍'].map((text) => ({ text, embedding: vectorOf(text) })),
    });
    const replay = offline();
    expect(replay.importCache(JSON.parse(JSON.stringify(exported)))).toEqual({
      _tag: 'Right',
      right: 3,
    });
    for (const text of ['a', 'b', 'hello 🌍']) {
      expect(replay.embed(text)).toEqual(embedder.embed(text));
    }
    await replay.prepare(['a', 'b', 'hello 🌍']); // all cached: no request (none could succeed)
    expect(replay.exportCache()).toEqual(exported);
  });

  it('takes the JSON text too, and counts only the texts it did not have', async () => {
    const replay = offline();
    const cache = cacheOf([{ text: 'a', embedding: [1, 2, 3, 4] }]);
    expect(replay.importCache(JSON.stringify(cache))).toEqual({ _tag: 'Right', right: 1 });
    const more = cacheOf([
      { text: 'a', embedding: [1, 2, 3, 4] },
      { text: 'b', embedding: [5, 6, 7, 8] },
    ]);
    expect(replay.importCache(more)).toEqual({ _tag: 'Right', right: 1 });
    expect(replay.embed('b')).toEqual([5, 6, 7, 8]);
  });

  it('exports data a caller cannot use to change the cache', async () => {
    const { embedder } = await start();
    await embedder.prepare(['a']);
    const exported = embedder.exportCache();
    (exported.entries[0]?.embedding as number[])[0] = 42;
    (exported.entries as unknown[]).push({ text: 'x', embedding: [0, 0, 0, 0] });
    expect(embedder.has('x')).toBe(false);
    expect(embedder.embed('a')).toEqual(vectorOf('a'));
  });

  it('copies imported vectors: changing the input afterwards changes nothing', () => {
    const replay = offline();
    const embedding = [1, 2, 3, 4];
    replay.importCache(cacheOf([{ text: 'a', embedding }]));
    embedding[0] = 42;
    expect(replay.embed('a')).toEqual([1, 2, 3, 4]);
  });
});

describe('importCache refuses a cache that does not fit, and imports nothing of it', () => {
  const refused: readonly (readonly [string, unknown, string])[] = [
    [
      'another model',
      cacheOf([], { model: 'text-embedding-3-large' }),
      `model: expected "text-embedding-3-small" (this embedder's: vectors of different models do not compare), got "text-embedding-3-large"`,
    ],
    [
      'other dimensions',
      cacheOf([], { dimensions: null }),
      "dimensions: expected 4 (this embedder's), got null",
    ],
    [
      'another format',
      cacheOf([], { format: 'x' }),
      'format: expected "conversation-memory/embeddings", got "x"',
    ],
    ['a newer version', cacheOf([], { version: 2 }), 'version: expected 1, got 2'],
    ['no entries', cacheOf(undefined as never), 'entries: expected an array, got undefined'],
    [
      'a text twice',
      cacheOf([
        { text: 'a', embedding: [1, 2, 3, 4] },
        { text: 'a', embedding: [1, 2, 3, 4] },
      ]),
      'entries[1].text: the same text as entries[0]',
    ],
    [
      'a text that is not a string',
      cacheOf([{ text: 7, embedding: [1, 2, 3, 4] } as never]),
      'entries[0].text: expected a string, got 7',
    ],
    [
      'a vector of another length',
      cacheOf([{ text: 'a', embedding: [1, 2, 3] }]),
      "entries[0].embedding: expected 4 numbers (this embedder's), got 3",
    ],
    [
      'a value that is not a finite number',
      cacheOf([{ text: 'a', embedding: [1, '2', 3, 4] as never }]),
      'entries[0].embedding[1]: expected a finite number, got "2"',
    ],
    ['text that is not JSON', '{"format": ', '(root): the text is not JSON (11 characters)'],
    [
      'an array',
      [],
      '(root): expected an exported embedding cache (an object), got an array of length 0',
    ],
  ];

  it.each(refused)('%s', (_, input, problem) => {
    const replay = offline();
    replay.importCache(cacheOf([{ text: 'kept', embedding: [0, 0, 0, 1] }]));
    const valid = { text: 'valid', embedding: [1, 1, 1, 1] };
    // A valid entry after the bad ones: it is not imported either.
    const entries = (input as { entries?: unknown } | null)?.entries;
    const withValid = Array.isArray(entries)
      ? { ...(input as object), entries: [...entries, valid] }
      : input;
    expect(problemsOf(replay.importCache(withValid))).toContain(problem);
    expect(replay.has('valid')).toBe(false);
    expect(replay.exportCache().entries).toEqual([{ text: 'kept', embedding: [0, 0, 0, 1] }]);
  });

  it('refuses another vector for a text it has (a cached vector never changes)', () => {
    const replay = offline();
    replay.importCache(cacheOf([{ text: 'a', embedding: [1, 2, 3, 4] }]));
    const problems = problemsOf(
      replay.importCache(
        cacheOf([
          { text: 'b', embedding: [5, 6, 7, 8] },
          { text: 'a', embedding: [1, 2, 3, 5] },
        ]),
      ),
    );
    expect(problems).toEqual([
      'entries[1].embedding: differs from the vector this embedder has for "a"',
    ]);
    expect(replay.has('b')).toBe(false);
    expect(replay.embed('a')).toEqual([1, 2, 3, 4]);
  });

  it('holds an import to the length of the vectors it has when no dimensions are set', () => {
    const loose = createOpenAIEmbedder({ client: new OpenAI({ apiKey: 'k' }) });
    loose.importCache(cacheOf([{ text: 'a', embedding: [1, 2] }], { dimensions: null }));
    const problems = problemsOf(
      loose.importCache(cacheOf([{ text: 'b', embedding: [1, 2, 3] }], { dimensions: null })),
    );
    expect(problems).toEqual(["entries[0].embedding: expected 2 numbers (this embedder's), got 3"]);
  });
});
