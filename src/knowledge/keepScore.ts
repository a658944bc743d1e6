import type { FactRecord } from '../model/knowledge';
import type { EvictionCandidate } from './evictionHeap';

/**
 * The keep score facts are evicted by when a limit is exceeded (the lowest goes first):
 *
 *     score = importance × mentions × 2^(−(now − lastSeen) / KEEP_HALF_LIFE_MS)
 *
 * - `importance`: an entry's own importance; a relation's confidence; an entity
 *   {@link ENTITY_IMPORTANCE}.
 * - `mentions`: how many extractions (or `remember` calls) stated it.
 * - `lastSeen`: when it was last stated (`lastMentioned`, an entry's `updatedAt`).
 *
 * Because every fact decays at the same rate, the order does not depend on `now`: comparing
 * `log2(importance × mentions) + lastSeen / half-life` gives the same order at any time, which
 * keeps eviction deterministic in a replay. Ties go to the fact seen longest ago, then the one
 * recorded first. A persistent entry is never evicted; facts stated in the action being applied
 * are not evicted by it. The reference evicts by recency alone (entities: LRU; triples: FIFO;
 * entries: lowest importance).
 */

/** The half-life of the recency term: 7 days. */
export const KEEP_HALF_LIFE_MS = 7 * 24 * 60 * 60 * 1000;

/** The importance of an entity in its keep score (the reference's default entry importance). */
export const ENTITY_IMPORTANCE = 0.5;

/**
 * The keep score at `now`.
 *
 * @internal
 */
export const keepScore = (
  importance: number,
  mentions: number,
  lastSeen: number,
  now: number,
): number => importance * mentions * 2 ** (-Math.max(0, now - lastSeen) / KEEP_HALF_LIFE_MS);

/** The lists facts are evicted from. */
export type EvictableList = 'entities' | 'relations' | 'entries';

/**
 * A fact's importance and last-seen time, for its keep score.
 *
 * @internal
 */
export const keepParts = (
  key: EvictableList,
  fact: FactRecord,
): { importance: number; lastSeen: number } => {
  if (key === 'entities') {
    return {
      importance: ENTITY_IMPORTANCE,
      lastSeen: (fact as FactRecord & { lastMentioned: number }).lastMentioned,
    };
  }
  if (key === 'relations') {
    return {
      importance: fact.confidence,
      lastSeen: (fact as FactRecord & { lastMentioned: number }).lastMentioned,
    };
  }
  const entry = fact as FactRecord & { importance: number; updatedAt: number };
  return { importance: entry.importance, lastSeen: entry.updatedAt };
};

/**
 * The time-free form of the keep score: `log2(importance × mentions) + lastSeen / half-life`
 * orders facts as the score does at any `now`.
 *
 * @internal
 */
export const keepRank = (key: EvictableList, fact: FactRecord): number => {
  const { importance, lastSeen } = keepParts(key, fact);
  const weight = importance * fact.mentions;
  return (weight > 0 ? Math.log2(weight) : -Infinity) + lastSeen / KEEP_HALF_LIFE_MS;
};

/**
 * The eviction candidate of the fact at `i`, or `undefined` for one that is never evicted (retired
 * already, or a persistent entry).
 *
 * @internal
 */
export const candidateOf = (
  key: EvictableList,
  fact: FactRecord,
  i: number,
): EvictionCandidate | undefined => {
  if (fact.retiredAt !== null) return undefined;
  if (key === 'entries' && (fact as FactRecord & { persistent: boolean }).persistent)
    return undefined;
  return {
    rank: keepRank(key, fact),
    lastSeen: keepParts(key, fact).lastSeen,
    recordedAt: fact.recordedAt,
    i,
    id: fact.id,
  };
};
