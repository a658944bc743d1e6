import type {
  Entity,
  FactRecord,
  KnowledgeEntry,
  KnowledgeState,
  Relation,
} from '../model/knowledge';
import { EvictionHeap } from './evictionHeap';
import { candidateOf, type EvictableList } from './keepScore';
import { bucketsOf, shinglesOf } from './nameShingles';
import { normalizeContent, normalizeName, normalizeRelation } from './normalize';

/**
 * The lookups the knowledge reducers resolve with, so that merging one extraction costs time
 * proportional to the extraction, not to the facts stored: names and aliases of entities in force,
 * their LSH buckets, relations in force by triple and by (subject, relation), entries in force by
 * content, and every entry by id. Positions are indexes into the state's arrays.
 *
 * An index is derived data: it lives in a module cache keyed by the state it describes, never in
 * the state. A reducer takes the index of its input state ({@link takeIndex}: the cached one, which
 * it then owns and updates in place, or a new one built in one pass) and leaves it cached for the
 * state it returns ({@link keepIndex}). Along a chain of states (a live conversation, a replay)
 * each step reuses its predecessor's index; a state reached otherwise (a time-travel jump, a
 * decoded file, a branch from an older state) builds its own once.
 *
 * @internal
 */
export interface KnowledgeIndex {
  readonly entityByKey: Map<string, number>;
  readonly entityBuckets: Map<string, Set<number>>;
  readonly relationByTriple: Map<string, number>;
  readonly relationsBySubject: Map<string, Set<number>>;
  readonly entryByContent: Map<string, number>;
  readonly entryById: Map<string, number>;
  /** The eviction candidates of each list, lowest keep rank first (entries may be stale). */
  readonly heaps: {
    readonly entities: EvictionHeap;
    readonly relations: EvictionHeap;
    readonly entries: EvictionHeap;
  };
  /** How many facts of each list are in force, and how many retired. */
  readonly counts: {
    entities: number;
    relations: number;
    entries: number;
    retiredEntities: number;
    retiredRelations: number;
    retiredEntries: number;
  };
}

const cache = /* @__PURE__ */ new WeakMap<KnowledgeState, KnowledgeIndex>();

/** The subject or object key of a relation end: the normalized name. */
export const endKey = (name: string): string => normalizeName(name);

/** The key of a relation in force: subject, relation and object, normalized. */
export const tripleKey = (subject: string, relation: string, object: string): string =>
  `${endKey(subject)}\u0000${normalizeRelation(relation)}\u0000${endKey(object)}`;

/** The key of a (subject, relation) pair. */
export const subjectKey = (subject: string, relation: string): string =>
  `${endKey(subject)}\u0000${normalizeRelation(relation)}`;

const addToSet = <K>(map: Map<K, Set<number>>, key: K, value: number): void => {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
};

/** Names an entity is found by: its name and aliases, normalized. */
export const entityKeys = (entity: Entity): string[] => [
  normalizeName(entity.name),
  ...entity.aliases.map(normalizeName),
];

/** Puts an entity in force at `i` into the index. */
export const indexEntity = (index: KnowledgeIndex, entity: Entity, i: number): void => {
  index.counts.entities++;
  for (const key of entityKeys(entity))
    if (!index.entityByKey.has(key)) index.entityByKey.set(key, i);
  for (const bucket of bucketsOf(shinglesOf(normalizeName(entity.name)))) {
    addToSet(index.entityBuckets, bucket, i);
  }
};

/** Takes a retired entity at `i` out of the index. */
export const unindexEntity = (index: KnowledgeIndex, entity: Entity, i: number): void => {
  index.counts.entities--;
  index.counts.retiredEntities++;
  for (const key of entityKeys(entity))
    if (index.entityByKey.get(key) === i) index.entityByKey.delete(key);
  for (const bucket of bucketsOf(shinglesOf(normalizeName(entity.name)))) {
    index.entityBuckets.get(bucket)?.delete(i);
  }
};

/** Puts a relation in force at `i` into the index. */
export const indexRelation = (index: KnowledgeIndex, relation: Relation, i: number): void => {
  index.counts.relations++;
  index.relationByTriple.set(tripleKey(relation.subject, relation.relation, relation.object), i);
  addToSet(index.relationsBySubject, subjectKey(relation.subject, relation.relation), i);
};

/** Takes a retired relation at `i` out of the index. */
export const unindexRelation = (index: KnowledgeIndex, relation: Relation, i: number): void => {
  index.counts.relations--;
  index.counts.retiredRelations++;
  const key = tripleKey(relation.subject, relation.relation, relation.object);
  if (index.relationByTriple.get(key) === i) index.relationByTriple.delete(key);
  index.relationsBySubject.get(subjectKey(relation.subject, relation.relation))?.delete(i);
};

/** Puts an entry at `i` into the index (by content only while in force). */
export const indexEntry = (index: KnowledgeIndex, entry: KnowledgeEntry, i: number): void => {
  index.entryById.set(entry.id, i);
  if (entry.retiredAt === null) {
    index.counts.entries++;
    index.entryByContent.set(normalizeContent(entry.content), i);
  } else {
    index.counts.retiredEntries++;
  }
};

/** Takes a retired entry at `i` out of the by-content lookup. */
export const unindexEntry = (index: KnowledgeIndex, entry: KnowledgeEntry, i: number): void => {
  index.counts.entries--;
  index.counts.retiredEntries++;
  const key = normalizeContent(entry.content);
  if (index.entryByContent.get(key) === i) index.entryByContent.delete(key);
};

/**
 * Refills a list's heap with a candidate for each fact of `list` that may be evicted.
 *
 * @internal
 */
export const fillHeap = (
  index: KnowledgeIndex,
  key: EvictableList,
  list: readonly FactRecord[],
): void => {
  const heap = index.heaps[key];
  heap.clear();
  list.forEach((fact, i) => {
    const candidate = candidateOf(key, fact, i);
    if (candidate !== undefined) heap.push(candidate);
  });
};

/**
 * Records that the fact at `i` of `key` was written (a new fact, a mention, a retirement): its
 * current version becomes a candidate (an older entry goes stale). A heap grown past four entries
 * per fact (stale ones piling up) is refilled from the list, which keeps it O(n) in size at an
 * amortized O(1) cost per write.
 *
 * @internal
 */
export const noteWrite = (
  index: KnowledgeIndex,
  key: EvictableList,
  list: readonly FactRecord[],
  i: number,
): void => {
  const heap = index.heaps[key];
  const candidate = candidateOf(key, list[i] as FactRecord, i);
  if (candidate !== undefined) heap.push(candidate);
  if (heap.size > 4 * list.length + 64) fillHeap(index, key, list);
};

/** Builds the index of a state in one pass. */
export const buildIndex = (state: KnowledgeState): KnowledgeIndex => {
  const index: KnowledgeIndex = {
    entityByKey: new Map(),
    entityBuckets: new Map(),
    relationByTriple: new Map(),
    relationsBySubject: new Map(),
    entryByContent: new Map(),
    entryById: new Map(),
    heaps: {
      entities: new EvictionHeap(),
      relations: new EvictionHeap(),
      entries: new EvictionHeap(),
    },
    counts: {
      entities: 0,
      relations: 0,
      entries: 0,
      retiredEntities: 0,
      retiredRelations: 0,
      retiredEntries: 0,
    },
  };
  state.entities.forEach((entity, i) => {
    if (entity.retiredAt === null) indexEntity(index, entity, i);
    else index.counts.retiredEntities++;
  });
  state.relations.forEach((relation, i) => {
    if (relation.retiredAt === null) indexRelation(index, relation, i);
    else index.counts.retiredRelations++;
  });
  state.entries.forEach((entry, i) => indexEntry(index, entry, i));
  fillHeap(index, 'entities', state.entities);
  fillHeap(index, 'relations', state.relations);
  fillHeap(index, 'entries', state.entries);
  return index;
};

/**
 * The index of `state`, to update in place: the cached one (taken out of the cache, so no other
 * reducer call shares it) or a new one.
 *
 * @internal
 */
export const takeIndex = (state: KnowledgeState): KnowledgeIndex => {
  const cached = cache.get(state);
  if (cached === undefined) return buildIndex(state);
  cache.delete(state);
  return cached;
};

/**
 * Leaves `index` cached for `state` (the state a reducer returns).
 *
 * @internal
 */
export const keepIndex = (state: KnowledgeState, index: KnowledgeIndex): void => {
  cache.set(state, index);
};

/**
 * A read-only look at the index of `state` (cached when it can be; never taken).
 *
 * @internal
 */
export const peekIndex = (state: KnowledgeState): KnowledgeIndex => {
  const cached = cache.get(state);
  if (cached !== undefined) return cached;
  const built = buildIndex(state);
  cache.set(state, built);
  return built;
};
