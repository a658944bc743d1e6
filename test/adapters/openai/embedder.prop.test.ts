/**
 * Properties of the embedder's pure parts: the batch plan (every text once, in order, within the
 * limits), the reading of a reply (any order of a valid reply reads back by index; any damage to
 * it is refused), and `importCache` on hostile input (never throws; a Left with a path; nothing
 * imported; each value read once).
 */
import fc from 'fast-check';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createOpenAIEmbedder } from 'conversation-memory/openai';
import { embeddingBatches, utf8Length } from '../../../src/adapters/openai/embeddingBatches';
import { readEmbeddings } from '../../../src/adapters/openai/readEmbeddings';
import {
  hostilityArb,
  jsonNodes,
  makeHostile,
  poisonArb,
  replaceAt,
  withCountedGetters,
  type ReadLog,
} from '../../arbitraries/hostile';

describe('embeddingBatches', () => {
  it('puts every text in exactly one batch, in order, within batchSize and maxBytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 30 }),
        (texts, batchSize, maxBytes) => {
          const batches = embeddingBatches(texts, batchSize, maxBytes);
          expect(batches.flat()).toEqual(texts);
          for (const batch of batches) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(batchSize);
            const bytes = batch.reduce((sum, text) => sum + utf8Length(text), 0);
            if (batch.length > 1) expect(bytes).toBeLessThanOrEqual(maxBytes);
          }
          // Greedy: a batch ends only when the next text would break a limit.
          batches.slice(0, -1).forEach((batch, i) => {
            const next = batches[i + 1]?.[0] ?? '';
            const bytes = batch.reduce((sum, text) => sum + utf8Length(text), 0);
            expect(batch.length === batchSize || bytes + utf8Length(next) > maxBytes).toBe(true);
          });
        },
      ),
    );
  });

  it('counts UTF-8 bytes as TextEncoder does (a lone surrogate as U+FFFD)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});

const vectorArb = (length: number) =>
  fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), {
    minLength: length,
    maxLength: length,
  });

/** A valid reply to `count` texts, its items in any order, and the vectors by index. */
const replyArb = fc
  .record({ count: fc.integer({ min: 1, max: 6 }), length: fc.integer({ min: 1, max: 5 }) })
  .chain(({ count, length }) =>
    fc
      .tuple(
        fc.array(vectorArb(length), { minLength: count, maxLength: count }),
        fc.shuffledSubarray(
          Array.from({ length: count }, (_, i) => i),
          { minLength: count, maxLength: count },
        ),
      )
      .map(([vectors, order]) => ({
        count,
        length,
        vectors,
        reply: { data: order.map((index) => ({ index, embedding: vectors[index] })) },
      })),
  );

/** Ways to damage a valid reply, each of which must be refused. */
const damageArb = fc.oneof(
  fc.constant('drop an item'),
  fc.constant('duplicate an item'),
  fc.constant('remove an index'),
  fc.constant('shift an index out of range'),
  fc.constant('a non-finite number'),
  fc.constant('a shorter vector'),
  fc.constant('not an object'),
);

const damage = (
  reply: { data: { index: number; embedding: number[] | undefined }[] },
  how: string,
  at: number,
): unknown => {
  const data: unknown[] = reply.data.map((item) => ({
    ...item,
    embedding: [...(item.embedding ?? [])],
  }));
  const i = at % data.length;
  const item = data[i] as { index?: number; embedding: unknown[] };
  switch (how) {
    case 'drop an item':
      data.splice(i, 1);
      break;
    case 'duplicate an item':
      data.push({ ...item });
      break;
    case 'remove an index':
      delete item.index;
      break;
    case 'shift an index out of range':
      item.index = data.length;
      break;
    case 'a non-finite number':
      item.embedding[at % item.embedding.length] = [NaN, Infinity, -Infinity, null, '1'][at % 5];
      break;
    case 'a shorter vector':
      if (item.embedding.length === 1) item.embedding.push(1);
      else item.embedding.pop();
      break;
    default:
      data[i] = [item.index, item.embedding];
  }
  return { data };
};

describe('readEmbeddings', () => {
  it('reads a valid reply in any order back by index, as copies', () => {
    fc.assert(
      fc.property(replyArb, ({ count, vectors, reply }) => {
        const read = readEmbeddings(reply, count, undefined);
        expect(read).toEqual({ vectors });
        if (!('vectors' in read)) return;
        read.vectors.forEach((vector, i) => {
          expect(vector).not.toBe(vectors[i]);
        });
      }),
    );
  });

  it('refuses any damage to a valid reply, naming a path under data', () => {
    fc.assert(
      fc.property(replyArb, damageArb, fc.nat(), ({ count, length, reply }, how, at) => {
        const expected = { length, why: 'the dimensions asked for' };
        const read = readEmbeddings(damage(reply, how, at), count, expected);
        expect(read).toHaveProperty('problems');
        if ('problems' in read) {
          expect(read.problems.length).toBeGreaterThan(0);
          for (const problem of read.problems) expect(problem).toMatch(/^data(\[\d+\])?[.:[]/);
        }
      }),
    );
  });

  it('refuses anything that is not a reply, without throwing', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 1, max: 4 }), (reply, count) => {
        const read = readEmbeddings(reply, count, undefined);
        expect(read).toHaveProperty('problems');
      }),
    );
  });
});

const client = new OpenAI({ baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', maxRetries: 0 });

/** A valid exported cache of `length`-long vectors (texts distinct). */
const cacheArb = fc.integer({ min: 1, max: 4 }).chain((length) =>
  fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 10 }), { maxLength: 5 }).chain((texts) =>
    fc.tuple(...texts.map(() => vectorArb(length))).map((vectors) => ({
      format: 'conversation-memory/embeddings',
      version: 1,
      model: 'text-embedding-3-small',
      dimensions: length,
      entries: texts.map((text, i) => ({ text, embedding: vectors[i] })),
    })),
  ),
);

/** A cache with one value anywhere replaced by something of another kind. */
const brokenCacheArb = cacheArb.chain((cache) => {
  const paths: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]): void => {
    paths.push(path);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value))
      walk(item, [...path, Array.isArray(value) ? Number(key) : key]);
  };
  walk(cache, []);
  return fc
    .tuple(
      fc.constantFrom(...paths),
      fc.constantFrom<unknown>(undefined, null, NaN, Infinity, 'x', -1.5, [], {}, true, 2 ** 40),
    )
    .filter(([path, value]) => {
      const last = path.at(-1);
      // A number for a number in a vector, a text replaced by a string, or the entries by an
      // empty list, may stay valid.
      return (
        !(typeof value === 'number' && Number.isFinite(value) && typeof last === 'number') &&
        !(last === 'text' && typeof value === 'string')
      );
    })
    .filter(
      ([path, value]) => !(path.length === 1 && path[0] === 'entries' && Array.isArray(value)),
    )
    .map(([path, value]) => ({
      input: replaceAt(cache, path, () => value),
      dimensions: cache.dimensions,
    }));
});

describe('importCache on hostile input', () => {
  it('imports any valid cache whole, and exports it back the same', () => {
    fc.assert(
      fc.property(cacheArb, (cache) => {
        const embedder = createOpenAIEmbedder({ client, dimensions: cache.dimensions });
        expect(embedder.importCache(cache)).toEqual({ _tag: 'Right', right: cache.entries.length });
        expect(embedder.exportCache()).toEqual(cache);
      }),
    );
  });

  it('never throws on anything: a Left with a path, and nothing imported', () => {
    const anyInput = fc.oneof(fc.anything(), fc.json()).map((input) => ({ input, dimensions: 1 }));
    fc.assert(
      fc.property(fc.oneof(anyInput, brokenCacheArb), ({ input, dimensions }) => {
        const embedder = createOpenAIEmbedder({ client, dimensions });
        const result = embedder.importCache(input);
        expect(result._tag).toBe('Left');
        if (result._tag === 'Left') {
          expect(result.left.problems.length).toBeGreaterThan(0);
          for (const problem of result.left.problems) {
            expect(problem).toMatch(/^(\(root\)|format|version|model|dimensions|entries)[.:[ ]/);
          }
        }
        expect(embedder.exportCache().entries).toEqual([]);
      }),
    );
  });

  it('survives Proxies and getters that throw anywhere in a cache', () => {
    fc.assert(
      fc.property(
        cacheArb.filter((cache) => cache.entries.length > 0),
        fc.nat(),
        hostilityArb(['format', 'entries', 'text', 'embedding', '0']),
        (cache, at, hostility) => {
          const nodes = jsonNodes(cache);
          const node = nodes[at % nodes.length];
          if (node === undefined) return;
          const input = replaceAt(cache, node.path, (value) => makeHostile(value, hostility));
          const embedder = createOpenAIEmbedder({ client, dimensions: cache.dimensions });
          const result = embedder.importCache(input);
          // A getter the decoder never reads (an unknown key) may leave the cache valid.
          if (result._tag === 'Left') {
            expect(result.left.problems.join('\n')).not.toContain('\u001b');
            expect(embedder.exportCache().entries).toEqual([]);
          } else expect(embedder.exportCache()).toEqual(cache);
        },
      ),
    );
  });

  it('reads each value once: a getter that answers differently later changes nothing', () => {
    fc.assert(
      fc.property(cacheArb, poisonArb, (cache, poison) => {
        const log: ReadLog = new Map();
        const embedder = createOpenAIEmbedder({ client, dimensions: cache.dimensions });
        const result = embedder.importCache(withCountedGetters(cache, poison, log));
        expect(result).toEqual({ _tag: 'Right', right: cache.entries.length });
        expect(embedder.exportCache()).toEqual(cache);
        for (const [path, reads] of log)
          expect({ path, reads: Math.min(reads, 1) }).toEqual({ path, reads });
      }),
    );
  });
});
