/**
 * Near-duplicate names, deterministically and without a model: a name is the set of its
 * character 3-grams (padded with a space at each end, so short names have shingles too); two
 * names are near duplicates when the Jaccard similarity of their sets reaches
 * {@link NEAR_DUPLICATE_SIMILARITY}. Candidates are found in sub-linear time by MinHash
 * locality-sensitive hashing ({@link MINHASH_BANDS} bands of {@link MINHASH_ROWS} rows: two names
 * at similarity s share a band with probability 1 − (1 − s^4)^8, 0.98 at 0.8), and every candidate
 * is then checked with the exact similarity, so the answer never depends on a hash collision.
 *
 * No library: the few MinHash packages on npm are unmaintained or Node-only (they hash with
 * `crypto`); 32 FNV-1a hashes of short strings are a few lines.
 */

/** The similarity (Jaccard of padded 3-grams) from which two names are one entity. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

/** MinHash bands and rows per band (32 hashes). */
export const MINHASH_BANDS = 8;
export const MINHASH_ROWS = 4;

/** The padded character 3-grams of a normalized name. */
export const shinglesOf = (name: string): Set<string> => {
  const padded = ` ${name} `;
  const chars = Array.from(padded);
  const shingles = new Set<string>();
  if (chars.length < 3) {
    shingles.add(padded);
    return shingles;
  }
  for (let i = 0; i + 3 <= chars.length; i++) shingles.add(chars.slice(i, i + 3).join(''));
  return shingles;
};

/** The exact Jaccard similarity of two shingle sets. */
export const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const shingle of a) if (b.has(shingle)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
};

/** FNV-1a (32 bit) of `text`, seeded. */
const fnv1a = (text: string, seed: number): number => {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
};

/** The hashes' seeds, one per band row. */
const seedsOf = (): readonly number[] =>
  Array.from(
    { length: MINHASH_BANDS * MINHASH_ROWS },
    (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0,
  );

// A pure call without arguments: a bundler drops it from a page that never hashes names (an
// argument such as `MINHASH_BANDS * MINHASH_ROWS` would keep it, as a product may run code).
const SEEDS: readonly number[] = /* @__PURE__ */ seedsOf();

/**
 * The LSH bucket keys of a name's shingles: one per band (`band:minhashes`). Names that share a
 * key are candidates for the exact check.
 */
export const bucketsOf = (shingles: ReadonlySet<string>): string[] => {
  const minimums = SEEDS.map((seed) => {
    let lowest = 0xffffffff;
    for (const shingle of shingles) {
      const hash = fnv1a(shingle, seed);
      if (hash < lowest) lowest = hash;
    }
    return lowest;
  });
  const keys: string[] = [];
  for (let band = 0; band < MINHASH_BANDS; band++) {
    const rows = minimums.slice(band * MINHASH_ROWS, (band + 1) * MINHASH_ROWS);
    keys.push(`${band}:${rows.join(',')}`);
  }
  return keys;
};
