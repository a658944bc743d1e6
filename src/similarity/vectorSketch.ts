import { EmbedderError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { mix32, seedOf } from './hashing';

/**
 * How many SimHash bits a vector sketch keeps: 8 bands of 8 bits, 16 of 4 or 32 of 2.
 *
 * @internal
 */
export const SIMHASH_BITS = 64;

/** Vectors longer than this are refused: a registered embedder returning one is a bug. */
const MAX_DIMENSIONS = 65_536;

/**
 * An embedder's vector, checked and scaled to length 1, so that a dot product is the cosine.
 * Throws an `EmbedderError` naming the embedder and the value when the vector is not a non-empty
 * list of finite numbers, not all zero.
 *
 * @internal
 */
export const unitVector = (name: string, vector: unknown, api: string): Float64Array => {
  // A list of numbers, or a Float32Array / Float64Array as ML libraries return them.
  const list =
    Array.isArray(vector) || vector instanceof Float32Array || vector instanceof Float64Array
      ? (vector as ArrayLike<unknown>)
      : undefined;
  if (list === undefined || list.length === 0 || list.length > MAX_DIMENSIONS) {
    throw new EmbedderError(
      api,
      `embedder ${describeValue(name)} must return a non-empty array of at most ${MAX_DIMENSIONS} numbers, returned ${describeValue(vector)}`,
    );
  }
  const unit = new Float64Array(list.length);
  let norm = 0;
  for (let i = 0; i < list.length; i++) {
    const value: unknown = list[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EmbedderError(
        api,
        `embedder ${describeValue(name)} returned a vector whose item [${i}] is ${describeValue(value)}; every item must be a finite number`,
      );
    }
    unit[i] = value;
    norm += value * value;
  }
  if (norm === 0) {
    throw new EmbedderError(
      api,
      `embedder ${describeValue(name)} returned a zero vector, which has no direction to compare`,
    );
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < unit.length; i++) unit[i] = (unit[i] as number) * scale;
  return unit;
};

/**
 * The SimHash of a unit vector: bit `k` is the side of the `k`-th random hyperplane it lies on.
 * The hyperplanes have ±1 coordinates drawn from a seeded hash of (k, dimension), so they cost no
 * memory and are the same in every process. Two vectors at angle θ agree on a bit with
 * probability about 1 − θ/π.
 *
 * @returns the 64 bits as two 32-bit words
 * @internal
 */
export const simHashOf = (unit: Float64Array): Uint32Array => {
  const bits = new Uint32Array(SIMHASH_BITS / 32);
  for (let k = 0; k < SIMHASH_BITS; k++) {
    const seed = seedOf(k);
    let side = 0;
    for (let d = 0; d < unit.length; d++) {
      side += (mix32(seed ^ d) & 1) === 1 ? (unit[d] as number) : -(unit[d] as number);
    }
    if (side >= 0) bits[k >>> 5] = ((bits[k >>> 5] as number) | (1 << (k & 31))) >>> 0;
  }
  return bits;
};

/**
 * The cosine similarity of two unit vectors (0 when their lengths differ: two embedders' vectors
 * are never compared, but a registered embedder might change its dimensions).
 *
 * @internal
 */
export const cosineOf = (a: Float64Array, b: Float64Array): number => {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
};
