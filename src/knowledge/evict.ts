import type { Entity, FactRecord } from '../model/knowledge';
import type { FactKind } from '../model/knowledgeEffects';
import { retiredFact } from './facts';
import { ENTITY_IMPORTANCE, KEEP_HALF_LIFE_MS } from './keepScore';
import type { KnowledgeDraft } from './knowledgeDraft';
import { unindexEntity, unindexEntry, unindexRelation } from './knowledgeIndex';

type ListKey = 'entities' | 'relations' | 'entries';

const IN_FORCE = { entities: 'entities', relations: 'relations', entries: 'entries' } as const;
const RETIRED = {
  entities: 'retiredEntities',
  relations: 'retiredRelations',
  entries: 'retiredEntries',
} as const;

const KIND: Record<ListKey, FactKind> = {
  entities: 'entity',
  relations: 'relation',
  entries: 'entry',
};

/** A fact's importance and last-seen time, for its keep score. */
const scoreParts = (key: ListKey, fact: FactRecord): { importance: number; lastSeen: number } => {
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
 * The time-free form of the keep score (see keepScore.ts): `log2(importance × mentions) +
 * lastSeen / half-life` orders facts as the score does at any `now`.
 */
const rank = (key: ListKey, fact: FactRecord): number => {
  const { importance, lastSeen } = scoreParts(key, fact);
  const weight = importance * fact.mentions;
  return (weight > 0 ? Math.log2(weight) : -Infinity) + lastSeen / KEEP_HALF_LIFE_MS;
};

/**
 * Retires facts of one kind in force beyond `max`, lowest keep score first (ties: seen longest
 * ago, then recorded first, then first in the list), never one stated by this action, never a
 * persistent entry. Each is reported as `knowledge/retired` with reason `'evicted'` and its score
 * at `at`.
 *
 * @internal
 */
export const evictBeyond = (draft: KnowledgeDraft, key: ListKey, max: number, at: number): void => {
  if (draft.index.counts[IN_FORCE[key]] <= max) return;
  const list = draft[key] as readonly FactRecord[];
  let inForce = 0;
  const candidates: { i: number; rank: number; lastSeen: number; recordedAt: number }[] = [];
  list.forEach((fact, i) => {
    if (fact.retiredAt !== null) return;
    inForce++;
    if (draft.touched.has(fact.id)) return;
    if (key === 'entries' && (fact as FactRecord & { persistent: boolean }).persistent) return;
    candidates.push({
      i,
      rank: rank(key, fact),
      lastSeen: scoreParts(key, fact).lastSeen,
      recordedAt: fact.recordedAt,
    });
  });
  let excess = inForce - max;
  if (excess <= 0) return;
  candidates.sort(
    (a, b) =>
      a.rank - b.rank || a.lastSeen - b.lastSeen || a.recordedAt - b.recordedAt || a.i - b.i,
  );
  for (const candidate of candidates) {
    if (excess <= 0) break;
    const fact = list[candidate.i] as FactRecord;
    const { importance, lastSeen } = scoreParts(key, fact);
    const score =
      importance * fact.mentions * 2 ** (-Math.max(0, at - lastSeen) / KEEP_HALF_LIFE_MS);
    const retired = retiredFact(fact, at, 'evicted', null, null);
    if (key === 'entities') {
      unindexEntity(draft.index, fact as never, candidate.i);
      // Its attributes leave with it: each in force is retired too, for the same reason.
      const entity = retired as unknown as Entity;
      draft.setEntity(candidate.i, {
        ...entity,
        attributes: entity.attributes.map((attribute) =>
          attribute.retiredAt === null
            ? retiredFact(attribute, at, 'evicted', null, null)
            : attribute,
        ),
      });
    } else if (key === 'relations') {
      unindexRelation(draft.index, fact as never, candidate.i);
      draft.setRelation(candidate.i, retired as never);
    } else {
      unindexEntry(draft.index, fact as never, candidate.i);
      draft.setEntry(candidate.i, retired as never);
    }
    draft.effect({
      type: 'knowledge/retired',
      kind: KIND[key],
      id: fact.id,
      reason: 'evicted',
      score,
    });
    excess--;
  }
};

/**
 * Keeps the retired facts of one kind bounded: when more than twice `max` are retired, the ones
 * retired longest ago are dropped from the state until `max` remain (reported as
 * `knowledge/dropped`; the event log still holds every state they were in). Dropping only past
 * twice the limit keeps the index rebuild this needs to once every `max` retirements.
 *
 * @internal
 */
export const dropRetiredBeyond = (draft: KnowledgeDraft, key: ListKey, max: number): void => {
  if (draft.index.counts[RETIRED[key]] <= 2 * max) return;
  const list = draft[key] as readonly FactRecord[];
  const retired: { i: number; at: number }[] = [];
  list.forEach((fact, i) => {
    if (fact.retiredAt !== null) retired.push({ i, at: fact.retiredAt });
  });
  if (retired.length <= 2 * max) return;
  retired.sort((a, b) => a.at - b.at || a.i - b.i);
  const drop = new Set(retired.slice(0, retired.length - max).map((r) => r.i));
  const ids: string[] = [];
  const kept = list.filter((fact, i) => {
    if (!drop.has(i)) return true;
    ids.push(fact.id);
    return false;
  });
  draft.replaceList(key, kept as never);
  draft.effect({ type: 'knowledge/dropped', kind: KIND[key], ids });
};
