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
