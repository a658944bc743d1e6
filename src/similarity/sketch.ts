import type { Message } from '../model/message';
import { registeredEmbedder } from './embedders';
import { embeddingText } from './embeddingText';
import { fnv1a, mix32 } from './hashing';
import { jaccardOf, minHashOf, shingleHashes } from './lexicalSketch';
import { EmbedderError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { isConversationMemoryError } from '../errors/errorBrand';
import { valuesOf } from './valueGuard';
import { cosineOf, simHashOf, unitVector } from './vectorSketch';

/**
 * What a message is compared by, computed once when it enters (like its token count) and cached
 * by message object: the built-in lexical embedder's shingles and MinHash, or a registered
 * embedder's unit vector and SimHash. The guard's values are read only when a twin is checked
 * ({@link guardValuesOf}): most messages never meet a candidate.
 *
 * @internal
 */
export type Sketch =
  | {
      readonly kind: 'lexical';
      readonly shingles: Uint32Array;
      readonly minHash: Uint32Array;
    }
  | {
      readonly kind: 'vector';
      readonly unit: Float64Array;
      readonly simHash: Uint32Array;
    };

/** Sketches by message object, then by embedder name. */
const cache = /* @__PURE__ */ new WeakMap<Message, Map<string, Sketch>>();

/** The guard's values, by message object. */
const valueCache = /* @__PURE__ */ new WeakMap<Message, readonly string[]>();

/**
 * The guard's values of a message (cached by message object): its text's values and a hash of
 * each attachment.
 *
 * @internal
 */
export const guardValuesOf = (message: Message): readonly string[] => {
  const cached = valueCache.get(message);
  if (cached !== undefined) return cached;
  const values = messageValues(message);
  valueCache.set(message, values);
  return values;
};

const messageValues = (message: Message): string[] => {
  const values = valuesOf(embeddingText(message));
  if (message.imageBase64 !== undefined) values.push(`image:${fnv1a(message.imageBase64)}`);
  for (const part of message.contentParts ?? []) {
    if (part.type !== 'text') values.push(`part:${fnv1a(JSON.stringify(part))}`);
  }
  return values.sort();
};

const runEmbedder = (name: string, text: string, api: string): unknown => {
  const embed = registeredEmbedder(name);
  if (embed === undefined) throw new EmbedderError(api, `unknown embedder ${describeValue(name)}`);
  try {
    return embed(text);
  } catch (error) {
    if (isConversationMemoryError(error)) throw error;
    throw new EmbedderError(api, `embedder ${describeValue(name)} threw ${errorText(error)}`, {
      cause: error,
    });
  }
};

/**
 * The sketch of `message` under `embedder`, from the cache or made now.
 *
 * @throws EmbedderError when a registered embedder throws or returns an unusable vector
 * @internal
 */
export const sketchOf = (embedder: string, message: Message, api: string): Sketch => {
  let byName = cache.get(message);
  const cached = byName?.get(embedder);
  if (cached !== undefined) return cached;
  const text = embeddingText(message);
  let sketch: Sketch;
  // An empty text has no meaning to embed (OpenAI refuses one): it is compared lexically, so two
  // empty messages of one role are twins and an empty one is never a twin of a text.
  if (embedder === 'lexical' || text.trim() === '') {
    const shingles = shingleHashes(text);
    sketch = { kind: 'lexical', shingles, minHash: minHashOf(shingles) };
  } else {
    const unit = unitVector(embedder, runEmbedder(embedder, text, api), api);
    sketch = { kind: 'vector', unit, simHash: simHashOf(unit) };
  }
  if (byName === undefined) {
    byName = new Map();
    cache.set(message, byName);
  }
  byName.set(embedder, sketch);
  return sketch;
};

/**
 * The similarity of two sketches from one embedder: the exact Jaccard similarity of the shingle
 * sets (lexical), or the cosine of the vectors.
 *
 * @internal
 */
export const similarityOf = (a: Sketch, b: Sketch): number => {
  if (a.kind === 'lexical' && b.kind === 'lexical') return jaccardOf(a.shingles, b.shingles);
  if (a.kind === 'vector' && b.kind === 'vector') return cosineOf(a.unit, b.unit);
  return 0;
};

/**
 * How a sketch is cut into locality-sensitive bands for a threshold: long bands for a high
 * threshold (few false candidates), short ones for a low one (few misses). Each layout uses the
 * 64 values (MinHash) or bits (SimHash) a sketch keeps. For the lexical embedder at the default
 * 0.9, two messages of Jaccard similarity 0.9 share a band with probability 0.99, of 0.5 with
 * probability 0.03.
 *
 * @internal
 */
export const bandLayout = (threshold: number): { readonly bands: number; readonly rows: number } =>
  threshold >= 0.8
    ? { bands: 8, rows: 8 }
    : threshold >= 0.6
      ? { bands: 16, rows: 4 }
      : { bands: 32, rows: 2 };

/**
 * The bucket keys of a sketch: one number per band, the band's index in the high bits and a hash
 * of its rows (seeded by `salt`) in the low 32, so keys of different bands never meet, nor keys
 * of different salts (the index salts by role and tool call: only those can be twins).
 *
 * @internal
 */
export const bandKeysOf = (
  sketch: Sketch,
  layout: { readonly bands: number; readonly rows: number },
  salt: string,
): number[] => {
  const keys = new Array<number>(layout.bands);
  const seed = fnv1a(salt);
  for (let band = 0; band < layout.bands; band++) {
    let hash = seed;
    if (sketch.kind === 'lexical') {
      for (let r = 0; r < layout.rows; r++) {
        hash = mix32(hash ^ (sketch.minHash[band * layout.rows + r] as number)) + r;
      }
    } else {
      let bits = 0;
      for (let r = 0; r < layout.rows; r++) {
        const bit = band * layout.rows + r;
        bits = (bits << 1) | (((sketch.simHash[bit >>> 5] as number) >>> (bit & 31)) & 1);
      }
      hash = mix32((seed + Math.imul(bits + 1, 0x9e3779b1)) >>> 0);
    }
    keys[band] = band * 0x1_0000_0000 + (hash >>> 0);
  }
  return keys;
};
