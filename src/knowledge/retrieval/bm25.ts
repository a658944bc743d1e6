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
    const idf = Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5));
    documents.forEach((document, i) => {
      const frequency = document.frequencies.get(term);
      if (frequency === undefined) return;
      const norm = 1 - BM25_B + (BM25_B * document.length) / averageLength;
      scores[i] =
        (scores[i] as number) + (idf * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * norm);
    });
  }
  return scores;
};
