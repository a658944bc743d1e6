import { cosineOf } from '../../similarity/vectorSketch';
import { sketchOf } from '../../similarity/sketch';
import { documentAt, type RecallHit, type RecallIndex } from './recallIndex';

/** How many of the newest trimmed messages an embedder compares with the question. */
export const EMBEDDED_SCAN = 20_000;

/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009). */
const RRF_K = 60;

/**
 * The `limit` messages of `index` whose vectors (the registered `embedder`'s, each computed once
 * per message) are nearest the query's by cosine, best first, among the newest
 * {@link EMBEDDED_SCAN}; only those with a positive cosine. Finds what shares no word with the
 * query, which BM25 cannot.
 *
 * @throws EmbedderError when the embedder throws or returns an unusable vector
 * @internal
 */
export const embeddedHits = (
  index: RecallIndex,
  query: string,
  limit: number,
  embedder: string,
): RecallHit[] => {
  const asked = sketchOf(embedder, { role: 'user', content: query }, 'modelView');
  if (asked.kind !== 'vector') return [];
  const hits: RecallHit[] = [];
  for (let doc = Math.max(0, index.size - EMBEDDED_SCAN); doc < index.size; doc++) {
    const { message, position } = documentAt(index, doc);
    const sketch = sketchOf(embedder, message, 'modelView');
    if (sketch.kind !== 'vector') continue;
    const score = cosineOf(asked.unit, sketch.unit);
    if (score > 0) hits.push({ doc, score, message, position });
  }
  hits.sort((a, b) => b.score - a.score || b.doc - a.doc);
  return hits.slice(0, limit);
};

/**
 * Two rankings of the same index fused by reciprocal rank (`Σ 1 / (60 + rank)`), best first, a
 * message in both counted once with both ranks; equal fused scores go to the newer message.
 *
 * @internal
 */
export const fuseRankings = (
  first: readonly RecallHit[],
  second: readonly RecallHit[],
): RecallHit[] => {
  const fused = new Map<number, { hit: RecallHit; score: number }>();
  for (const ranking of [first, second]) {
    ranking.forEach((hit, rank) => {
      const entry = fused.get(hit.doc) ?? { hit, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      fused.set(hit.doc, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || b.hit.doc - a.hit.doc)
    .map(({ hit, score }) => ({ ...hit, score }));
};
