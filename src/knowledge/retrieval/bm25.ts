import { searchWords } from './searchWords';

/**
 * BM25's term-frequency saturation: how quickly repeating a word stops adding to the score.
 *
 * @example
 * ```ts
 * BM25_K1; // 1.2
 * ```
 */
export const BM25_K1 = 1.2;

/**
 * BM25's length normalization: 0 ignores a fact's length, 1 divides fully by it.
 *
 * @example
 * ```ts
 * BM25_B; // 0.75
 * ```
 */
export const BM25_B = 0.75;

/**
 * BM25's idf of a word held by `containing` of `documents` documents: Lucene's non-negative
 * `ln(1 + (N − n + 0.5) / (n + 0.5))`.
 *
 * @internal
 */
export const bm25Idf = (documents: number, containing: number): number =>
  Math.log(1 + (documents - containing + 0.5) / (containing + 0.5));

/**
 * What one word adds to a document's BM25 score: its `idf`, held `frequency` times by a document
 * of `length` words in a collection whose documents average `averageLength` words.
 *
 * @internal
 */
export const bm25Part = (
  idf: number,
  frequency: number,
  length: number,
  averageLength: number,
): number => {
  const norm = 1 - BM25_B + (BM25_B * length) / averageLength;
  return (idf * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * norm);
};

/**
 * Okapi BM25 scores of `texts` for `query`, with {@link BM25_K1} and {@link BM25_B}, the
 * non-negative idf `ln(1 + (N − n + 0.5) / (n + 0.5))` (Lucene's), terms from
 * `searchWords` (each query word counted once), and the collection being `texts` themselves. A
 * text that shares no word with the query scores 0. Cost: one pass over the words of every text.
 *
 * @internal
 */
export const bm25Scores = (query: string, texts: readonly string[]): number[] => {
  const terms = [...new Set(searchWords(query))];
  const scores = texts.map(() => 0);
  if (terms.length === 0 || texts.length === 0) return scores;
  const documents = texts.map((text) => {
    const words = searchWords(text);
    const frequencies = new Map<string, number>();
    for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
    return { length: words.length, frequencies };
  });
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / documents.length;
  for (const term of terms) {
    const containing = documents.filter((d) => d.frequencies.has(term)).length;
    if (containing === 0) continue;
    const idf = bm25Idf(documents.length, containing);
    documents.forEach((document, i) => {
      const frequency = document.frequencies.get(term);
      if (frequency === undefined) return;
      scores[i] = (scores[i] as number) + bm25Part(idf, frequency, document.length, averageLength);
    });
  }
  return scores;
};
