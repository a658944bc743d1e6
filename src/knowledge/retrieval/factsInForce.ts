import type {
  Entity,
  EntityAttribute,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from '../../model/knowledge';
import { expiresAt } from '../remembered';

/**
 * The relations in force (`retiredAt === null`), in the state's order (oldest first, the
 * reference's store order).
 *
 * @internal
 */
export const relationsInForce = (state: KnowledgeState): Relation[] =>
  state.relations.filter((relation) => relation.retiredAt === null);

/**
 * The entities in force, most recently mentioned first (the reference's `EntityMemory.entities`;
 * ties keep the state's order, as Python's stable sort keeps its registry's).
 *
 * @internal
 */
export const entitiesInForce = (state: KnowledgeState): Entity[] =>
  state.entities
    .filter((entity) => entity.retiredAt === null)
    .map((entity, index) => ({ entity, index }))
    .sort((a, b) => b.entity.lastMentioned - a.entity.lastMentioned || a.index - b.index)
    .map(({ entity }) => entity);

/**
 * An entity's attributes in force, in the order of the reference's dict: each key where it was
 * first set (a new value replaces the old one in place), retired values left out.
 *
 * @internal
 */
export const attributesInForce = (entity: Entity): EntityAttribute[] => {
  const firstOfKey = new Map<string, number>();
  entity.attributes.forEach((attribute, index) => {
    if (!firstOfKey.has(attribute.key)) firstOfKey.set(attribute.key, index);
  });
  return entity.attributes
    .filter((attribute) => attribute.retiredAt === null)
    .map((attribute, index) => ({ attribute, index }))
    .sort(
      (a, b) =>
        (firstOfKey.get(a.attribute.key) as number) - (firstOfKey.get(b.attribute.key) as number) ||
        a.index - b.index,
    )
    .map(({ attribute }) => attribute);
};

/**
 * Whether an entry's TTL has run out at `now`: `now > recordedAt + ttlDays days` (the reference's
 * `is_expired`, from the time the memory learned it).
 *
 * @internal
 */
export const isExpired = (entry: KnowledgeEntry, now: number): boolean => {
  const end = expiresAt(entry);
  return end !== null && now > end;
};

/**
 * The entries in force at `now` (not retired, not expired), most important first (the
 * reference's `KnowledgeStore.query` order; ties keep the state's order).
 *
 * @internal
 */
export const entriesInForce = (state: KnowledgeState, now: number): KnowledgeEntry[] =>
  state.entries
    .filter((entry) => entry.retiredAt === null && !isExpired(entry, now))
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.importance - a.entry.importance || a.index - b.index)
    .map(({ entry }) => entry);
