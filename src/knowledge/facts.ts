import {
  MAX_FACT_SOURCES,
  type FactRecord,
  type FactSource,
  type RetireReason,
} from '../model/knowledge';

/**
 * The fields every new fact starts with: one mention, its source (when it has one), in force.
 *
 * @internal
 */
export const newFact = (
  id: string,
  at: number,
  validFrom: number,
  source: FactSource | null,
  confidence: number,
): FactRecord => ({
  id,
  sources: source === null ? [] : [source],
  confidence,
  mentions: 1,
  validFrom,
  validTo: null,
  recordedAt: at,
  retiredAt: null,
  retiredBy: null,
  supersededBy: null,
});

/**
 * A fact stated again: one more mention, the source appended (the newest
 * {@link MAX_FACT_SOURCES} kept; a source equal to the last one is not repeated), the higher
 * confidence kept.
 *
 * @internal
 */
export const mentionedAgain = <F extends FactRecord>(
  fact: F,
  source: FactSource | null,
  confidence: number,
): F => {
  const last = fact.sources.at(-1);
  const repeated =
    source === null || (last !== undefined && last.from === source.from && last.to === source.to);
  const sources = repeated ? fact.sources : [...fact.sources, source].slice(-MAX_FACT_SOURCES);
  return {
    ...fact,
    mentions: fact.mentions + 1,
    sources,
    confidence: Math.max(fact.confidence, confidence),
  };
};

/**
 * A fact retired at `at`, for `reason`, with its `validTo` (when it stopped holding in the world,
 * if the memory knows: the superseding fact's `validFrom`; `null` otherwise).
 *
 * @internal
 */
export const retiredFact = <F extends FactRecord>(
  fact: F,
  at: number,
  reason: RetireReason,
  by: string | null,
  validTo: number | null,
): F => ({
  ...fact,
  // Never before it was recorded (a writer whose clock is behind another's).
  retiredAt: Math.max(at, fact.recordedAt),
  retiredBy: reason,
  supersededBy: by,
  validTo: validTo === null ? fact.validTo : Math.max(validTo, fact.validFrom),
});
