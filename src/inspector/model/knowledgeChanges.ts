import { isExpired } from '../../knowledge/retrieval/factsInForce';
import type { MemoryEffect } from '../../model/effects';
import type { KnowledgeState } from '../../model/knowledge';
import type { FactKind } from '../../model/knowledgeEffects';
import { factRefs, factText } from './factRefs';
import type { FactRef, KnowledgeChange } from './knowledgeTypes';

/**
 * What one step did to the facts, from its effects (in their order), then the entries whose TTL
 * ran out between the previous step's time and this one's. Each fact is named by its kind, id and
 * text, found in the knowledge after the step (where retired facts stay) or, for a fact dropped
 * for good, before it.
 *
 * @param before - the knowledge before the step (`undefined`: none)
 * @param after - the knowledge after the step
 * @param effects - the step's effects (other effects are passed over)
 * @param now - the step's time
 * @param previousNow - the previous step's time (`now` at step 0)
 * @returns the changes
 * @example
 * ```ts
 * knowledgeChanges(before.knowledge, after.knowledge, effects, 2000, 1000);
 * // [{ change: 'read', … }, { change: 'retired', fact: { kind: 'relation', id: 'r4', … }, reason: 'superseded', by: { … }, score: null }, …]
 * ```
 */
export const knowledgeChanges = (
  before: KnowledgeState | undefined,
  after: KnowledgeState,
  effects: readonly MemoryEffect[],
  now: number,
  previousNow: number,
): KnowledgeChange[] => {
  const known = factRefs(after);
  let old: Map<string, FactRef> | undefined;
  // A clear reports an entity's attributes with the entity (`kind: 'entity'`): look for the id
  // under the other kinds too.
  const find = (refs: Map<string, FactRef>, kind: FactKind, id: string): FactRef | undefined =>
    refs.get(`${kind}:${id}`) ?? (kind === 'entity' ? refs.get(`attribute:${id}`) : undefined);
  const ref = (kind: FactKind, id: string): FactRef => {
    const found = find(known, kind, id);
    if (found !== undefined) return found;
    old ??= factRefs(before);
    return find(old, kind, id) ?? { kind, id, text: '' };
  };
  const changes: KnowledgeChange[] = [];
  for (const effect of effects) {
    switch (effect.type) {
      case 'knowledge/cursorMoved':
        changes.push({ change: 'read', source: effect.source, from: effect.from, to: effect.to });
        break;
      case 'knowledge/added': {
        const found = known.get(`${effect.kind}:${effect.fact.id}`);
        changes.push({
          change: 'added',
          fact: found ?? {
            kind: effect.kind,
            id: effect.fact.id,
            text: factText(effect.kind, effect.fact),
          },
        });
        break;
      }
      case 'knowledge/merged':
        changes.push({
          change: 'merged',
          fact: ref(effect.kind, effect.id),
          rule: effect.rule,
          name: effect.name ?? null,
          similarity: effect.similarity ?? null,
        });
        break;
      case 'knowledge/retired':
        changes.push({
          change: 'retired',
          fact: ref(effect.kind, effect.id),
          reason: effect.reason,
          by: effect.by === undefined ? null : ref(effect.kind, effect.by),
          score: effect.score ?? null,
        });
        break;
      case 'knowledge/dropped':
        for (const id of effect.ids)
          changes.push({ change: 'dropped', fact: ref(effect.kind, id) });
        break;
      default:
        break;
    }
  }
  if (now > previousNow) {
    for (const entry of after.entries) {
      if (entry.retiredAt === null && isExpired(entry, now) && !isExpired(entry, previousNow)) {
        changes.push({ change: 'expired', fact: ref('entry', entry.id) });
      }
    }
  }
  return changes;
};
