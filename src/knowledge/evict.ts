import type { Entity, FactRecord } from '../model/knowledge';
import type { FactKind } from '../model/knowledgeEffects';
import { retiredFact } from './facts';
import { candidateOf, KEEP_HALF_LIFE_MS, keepParts } from './keepScore';
import type { EvictionCandidate } from './evictionHeap';
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

/**
 * Retires facts of one kind in force beyond `max`, lowest keep score first (ties: seen longest
 * ago, then recorded first, then first in the list), never one stated by this action, never a
 * persistent entry. Each is reported as `knowledge/retired` with reason `'evicted'` and its score
 * at `at`. The candidates come off the index's heap (O(log n) each): an entry whose fact has
 * changed or left since it was pushed is stale and skipped; one stated by this action is put back.
 *
 * @internal
 */
export const evictBeyond = (draft: KnowledgeDraft, key: ListKey, max: number, at: number): void => {
  let excess = draft.index.counts[IN_FORCE[key]] - max;
  if (excess <= 0) return;
  const heap = draft.index.heaps[key];
  const aside: EvictionCandidate[] = [];
  while (excess > 0) {
    const candidate = heap.pop();
    if (candidate === undefined) break;
    const fact = (draft[key] as readonly FactRecord[])[candidate.i];
    if (fact === undefined || fact.id !== candidate.id) continue;
    const current = candidateOf(key, fact, candidate.i);
    if (
      current === undefined ||
      current.rank !== candidate.rank ||
      current.lastSeen !== candidate.lastSeen
    ) {
      continue;
    }
    if (draft.touched.has(fact.id)) {
      aside.push(candidate);
      continue;
    }
    const { importance, lastSeen } = keepParts(key, fact);
    const score =
      importance * fact.mentions * 2 ** (-Math.max(0, at - lastSeen) / KEEP_HALF_LIFE_MS);
    const retired = retiredFact(fact, at, 'evicted', null, null);
    if (key === 'entities') {
      unindexEntity(draft.index, fact as never, candidate.i);
      // Its attributes leave with it: each in force is retired too, for the same reason.
      const entity = retired as unknown as Entity;
      draft.setEntity(candidate.i, {
        ...entity,
        attributes: entity.attributes.map((attribute) => {
          if (attribute.retiredAt !== null) return attribute;
          draft.effect({
            type: 'knowledge/retired',
            kind: 'attribute',
            id: attribute.id,
            reason: 'evicted',
          });
          return retiredFact(attribute, at, 'evicted', null, null);
        }),
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
  for (const candidate of aside) heap.push(candidate);
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
