import { fnv1a, mix32, seedOf } from './hashing';

/**
 * How many MinHash values a lexical sketch keeps: enough for 8 bands of 8 rows, 16 of 4 or 32 of
 * 2 (see `bandLayout`).
 *
 * @internal
 */
export const MINHASH_SIZE = 64;

/**
 * Words as the lexical embedder reads them: runs of letters and digits (Unicode), matched after
 * NFKC and lower-casing (the value guard reads its content words the same way).
 *
 * @internal
 */
export const LEXICAL_WORD = /[\p{L}\p{N}]+/gu;

/** Words per shingle: 3-word shingles see word order, so a reordered sentence is not a twin. */
const SHINGLE_WORDS = 3;

/**
 * The word 3-shingles of a text, hashed: a sorted list without repeats. A text of fewer than three
 * words is one shingle (its words), and a text with no word at all is one shingle of its trimmed
 * characters, so `'👍'` and `'👍'` are twins and `'👍'` and `'👎'` are not.
 *
 * @internal
 */
export const shingleHashes = (text: string): Uint32Array => {
  const normalized = text.normalize('NFKC').toLowerCase();
  const words = normalized.match(LEXICAL_WORD) ?? [];
  const hashes: number[] = [];
  if (words.length < SHINGLE_WORDS) {
    hashes.push(fnv1a(words.length === 0 ? normalized.trim() : words.join(' ')));
  } else {
    for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
      hashes.push(fnv1a(`${words[i]} ${words[i + 1]} ${words[i + 2]}`));
    }
  }
  const sorted = Uint32Array.from(hashes).sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i] as number;
  }
  return sorted.slice(0, size);
};

/**
 * The MinHash signature of a set of shingle hashes: for each of {@link MINHASH_SIZE} seeded
 * permutations, the smallest permuted hash. Two sets agree on a value with a probability equal to
 * their Jaccard similarity, which is what locality-sensitive bands rely on.
 *
 * @internal
 */
export const minHashOf = (hashes: Uint32Array): Uint32Array => {
  const minimums = new Uint32Array(MINHASH_SIZE).fill(0xffffffff);
  for (let k = 0; k < MINHASH_SIZE; k++) {
    const seed = seedOf(k);
    let lowest = 0xffffffff;
    for (let i = 0; i < hashes.length; i++) {
      const permuted = mix32((hashes[i] as number) ^ seed);
      if (permuted < lowest) lowest = permuted;
    }
    minimums[k] = lowest;
  }
  return minimums;
};

/**
 * The exact Jaccard similarity of two sorted shingle-hash lists (a merge, linear in both).
 *
 * @internal
 */
export const jaccardOf = (a: Uint32Array, b: Uint32Array): number => {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const union = a.length + b.length - shared;
  return union === 0 ? 1 : shared / union;
};
