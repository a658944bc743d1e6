/**
 * The 32-bit hashes the sketches are made of. Fixed functions and seeds: a sketch is the same in
 * every process, so a replay buckets and prunes the same messages.
 */

/**
 * FNV-1a (32 bit) of a string's UTF-16 code units.
 *
 * @internal
 */
export const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/**
 * MurmurHash3's 32-bit finalizer: a bijection that mixes every input bit into every output bit.
 * With a seed XORed in, it is one of the independent permutations MinHash takes minimums under.
 *
 * @internal
 */
export const mix32 = (value: number): number => {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/**
 * The seed of the `i`-th permutation (golden-ratio steps, as in Knuth's multiplicative hashing).
 *
 * @internal
 */
export const seedOf = (i: number): number => Math.imul(i + 1, 0x9e3779b1) >>> 0;
