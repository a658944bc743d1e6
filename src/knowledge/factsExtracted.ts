import type {
  Entity,
  EntityAttribute,
  ExtractedEntity,
  ExtractedTriple,
  FactSource,
  KnowledgeState,
  Relation,
} from '../model/knowledge';
import type { FactsExtractedPayload } from '../model/knowledgeActions';
import type { MergeRule } from '../model/knowledgeEffects';
import { NO_EFFECTS } from '../internal/window';
import { dropRetiredBeyond, evictBeyond } from './evict';
import { mentionedAgain, newFact, retiredFact } from './facts';
import { KnowledgeDraft, type KnowledgeTransition } from './knowledgeDraft';
import {
  indexEntity,
  indexRelation,
  subjectKey,
  tripleKey,
  unindexRelation,
} from './knowledgeIndex';
import { bucketsOf, jaccard, NEAR_DUPLICATE_SIMILARITY, shinglesOf } from './nameShingles';
import { normalizeContent, normalizeName, normalizeRelation } from './normalize';
import { readFactsPayload, type ReadFacts } from './readKnowledgePayload';

/** Types that say nothing, so that they match any other in a near-duplicate test. */
const VAGUE_TYPES = /* @__PURE__ */ new Set(['other', 'unknown', '']);

const compatibleTypes = (a: string, b: string): boolean =>
  a.toLowerCase() === b.toLowerCase() ||
  VAGUE_TYPES.has(a.toLowerCase()) ||
  VAGUE_TYPES.has(b.toLowerCase());

/**
 * Resolves a reported name to an entity in force, in order: (1) the same normalized name, (2) one
 * of its aliases, (3) a near duplicate: a name whose padded 3-gram Jaccard similarity reaches
 * {@link NEAR_DUPLICATE_SIMILARITY} and whose type is compatible (equal, or either is vague), the
 * most similar first (then the first stored). `null`: a new entity.
 */
const resolveEntity = (
  draft: KnowledgeDraft,
  name: string,
  type: string,
): { i: number; rule: MergeRule; similarity?: number } | null => {
  const key = normalizeName(name);
  const exact = draft.index.entityByKey.get(key);
  if (exact !== undefined) {
    const entity = draft.entities[exact] as Entity;
    return { i: exact, rule: normalizeName(entity.name) === key ? 'name' : 'alias' };
  }
  const shingles = shinglesOf(key);
  const candidates = new Set<number>();
  for (const bucket of bucketsOf(shingles)) {
    for (const i of draft.index.entityBuckets.get(bucket) ?? []) candidates.add(i);
  }
  let best: { i: number; similarity: number } | null = null;
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const entity = draft.entities[i] as Entity;
    if (entity.retiredAt !== null || !compatibleTypes(entity.type, type)) continue;
    const similarity = jaccard(shingles, shinglesOf(normalizeName(entity.name)));
    if (
      similarity >= NEAR_DUPLICATE_SIMILARITY &&
      (best === null || similarity > best.similarity)
    ) {
      best = { i, similarity };
    }
  }
  return best === null ? null : { i: best.i, rule: 'nearDuplicate', similarity: best.similarity };
};

/** The entity's attributes after `reported`: equal values mentioned again, new values retiring old ones. */
const mergeAttributes = (
  draft: KnowledgeDraft,
  entity: Entity,
  reported: ExtractedEntity['attributes'],
  at: number,
  source: FactSource,
): readonly EntityAttribute[] => {
  let attributes = entity.attributes;
  for (const [rawKey, value] of Object.entries(reported)) {
    const key = rawKey.trim();
    if (key === '') continue;
    const normalizedKey = normalizeRelation(key);
    const current = attributes.findIndex(
      (attribute) =>
        attribute.retiredAt === null && normalizeRelation(attribute.key) === normalizedKey,
    );
    const old = current < 0 ? undefined : attributes[current];
    if (old !== undefined && normalizeContent(old.value) === normalizeContent(value)) {
      attributes = attributes.map((attribute, j) =>
        j === current ? mentionedAgain(attribute, source, 1) : attribute,
      );
      draft.effect({ type: 'knowledge/merged', kind: 'attribute', id: old.id, rule: 'identical' });
      continue;
    }
    const id = draft.newId('attribute');
    const added: EntityAttribute = { ...newFact(id, at, at, source, 1), key, value };
    draft.touched.add(id);
    const next = attributes.slice();
    if (old !== undefined) {
      next[current] = retiredFact(old, at, 'superseded', id, at);
      draft.effect({
        type: 'knowledge/retired',
        kind: 'attribute',
        id: old.id,
        reason: 'superseded',
        by: id,
      });
    }
    next.push(added);
    attributes = next;
    draft.effect({ type: 'knowledge/added', kind: 'attribute', fact: added });
  }
  return attributes;
};

const mergeEntity = (
  draft: KnowledgeDraft,
  reported: ExtractedEntity,
  read: ReadFacts,
  source: FactSource,
): void => {
  const name = reported.name.trim();
  const resolved = resolveEntity(draft, name, reported.type);
  if (resolved === null) {
    const id = draft.newId('entity');
    draft.touched.add(id);
    const base: Entity = {
      ...newFact(id, read.at, read.at, source, 1),
      name,
      aliases: [],
      type: reported.type,
      attributes: [],
      lastMentioned: read.at,
    };
    const entity: Entity = {
      ...base,
      attributes: mergeAttributes(draft, base, reported.attributes, read.at, source),
    };
    const i = draft.pushEntity(entity);
    indexEntity(draft.index, entity, i);
    draft.effect({ type: 'knowledge/added', kind: 'entity', fact: entity });
    return;
  }
  const stored = draft.entities[resolved.i] as Entity;
  draft.touched.add(stored.id);
  const known = new Set([stored.name, ...stored.aliases].map(normalizeName));
  const newAlias = !known.has(normalizeName(name));
  const again = mentionedAgain(stored, source, 1);
  const merged: Entity = {
    ...again,
    lastMentioned: read.at,
    // The reference never changes a type; a vague one gives way to a precise one.
    type:
      VAGUE_TYPES.has(stored.type.toLowerCase()) && !VAGUE_TYPES.has(reported.type.toLowerCase())
        ? reported.type
        : stored.type,
    aliases: newAlias ? [...stored.aliases, name] : stored.aliases,
    attributes: mergeAttributes(draft, stored, reported.attributes, read.at, source),
  };
  draft.setEntity(resolved.i, merged);
  if (newAlias) draft.index.entityByKey.set(normalizeName(name), resolved.i);
  draft.effect({
    type: 'knowledge/merged',
    kind: 'entity',
    id: stored.id,
    rule: resolved.rule,
    name,
    ...(resolved.similarity === undefined ? {} : { similarity: resolved.similarity }),
  });
};

/** The id of the entity in force a relation end names, by name or alias (no near-duplicate test). */
const endId = (draft: KnowledgeDraft, name: string): string | null => {
  const i = draft.index.entityByKey.get(normalizeName(name));
  return i === undefined ? null : (draft.entities[i] as Entity).id;
};

const mergeTriple = (
  draft: KnowledgeDraft,
  triple: ExtractedTriple,
  read: ReadFacts,
  source: FactSource,
): void => {
  const subject = triple.subject.trim();
  const relation = triple.relation.trim();
  const object = triple.object.trim();
  const identical = draft.index.relationByTriple.get(tripleKey(subject, relation, object));
  if (identical !== undefined) {
    const stored = draft.relations[identical] as Relation;
    draft.touched.add(stored.id);
    draft.setRelation(identical, {
      ...mentionedAgain(stored, source, triple.confidence),
      lastMentioned: read.at,
    });
    draft.effect({ type: 'knowledge/merged', kind: 'relation', id: stored.id, rule: 'identical' });
    return;
  }
  const id = draft.newId('relation');
  const validFrom = triple.validFrom ?? read.at;
  if (read.singleValued.has(normalizeRelation(relation))) {
    const holders = [
      ...(draft.index.relationsBySubject.get(subjectKey(subject, relation)) ?? []),
    ].sort((a, b) => a - b);
    for (const i of holders) {
      const old = draft.relations[i] as Relation;
      unindexRelation(draft.index, old, i);
      draft.setRelation(i, retiredFact(old, read.at, 'superseded', id, validFrom));
      draft.effect({
        type: 'knowledge/retired',
        kind: 'relation',
        id: old.id,
        reason: 'superseded',
        by: id,
      });
    }
  }
  const added: Relation = {
    ...newFact(id, read.at, validFrom, source, triple.confidence),
    subject,
    relation,
    object,
    subjectId: endId(draft, subject),
    objectId: endId(draft, object),
    lastMentioned: read.at,
  };
  draft.touched.add(id);
  const i = draft.pushRelation(added);
  indexRelation(draft.index, added, i);
  draft.effect({ type: 'knowledge/added', kind: 'relation', fact: added });
};

/** Keeps the first of each reported entity (by normalized name), later attributes merged in. */
const uniqueEntities = (entities: readonly ExtractedEntity[]): ExtractedEntity[] => {
  const byName = new Map<string, ExtractedEntity>();
  for (const entity of entities) {
    const key = normalizeName(entity.name);
    if (key === '') continue;
    const first = byName.get(key);
    byName.set(
      key,
      first === undefined
        ? entity
        : { ...first, attributes: { ...first.attributes, ...entity.attributes } },
    );
  }
  return [...byName.values()];
};

/** Keeps the first of each reported triple (by normalized subject, relation and object). */
const uniqueTriples = (triples: readonly ExtractedTriple[]): ExtractedTriple[] => {
  const seen = new Set<string>();
  return triples.filter((triple) => {
    const key = tripleKey(triple.subject, triple.relation, triple.object);
    if (
      seen.has(key) ||
      normalizeName(triple.subject) === '' ||
      normalizeName(triple.object) === ''
    )
      return false;
    seen.add(key);
    return true;
  });
};

/**
 * Merges what an extractor found in the messages at positions `from` to `to` (reducer of
 * `knowledge/factsExtracted`). The rules, in order:
 *
 * 1. **Read once.** Messages before the source's cursor were read already: a payload that ends
 *    before it changes nothing (a replayed or repeated extraction). Otherwise the cursor moves past
 *    `to` (`knowledge/cursorMoved`).
 * 2. **Entities** are resolved by normalized name, then alias, then near-duplicate name (see
 *    `resolveEntity`), each step named in the `knowledge/merged` effect; a near-duplicate's name
 *    becomes an alias. A merged entity gains a mention, a source and `lastMentioned`; otherwise it
 *    is added. An entity reported twice in one payload counts once.
 * 3. **Attributes** hold one value per key: the same value is a mention; a new one retires the old
 *    (`retiredBy: 'superseded'`, `validTo` and `retiredAt` set, `supersededBy` naming the new).
 * 4. **Relations**: the same (subject, relation, object) in force is a mention (never stored
 *    twice); for a single-valued relation (`singleValuedRelations`), a new object retires the
 *    subject's old one; other relations accumulate. Ends are linked to entities known by name.
 * 5. **Limits**: facts in force beyond `maxEntities` / `maxRelations` are evicted by keep score
 *    (keepScore.ts), never one stated by this payload; retired facts beyond twice the limit are
 *    dropped down to the limit.
 *
 * @param state - the knowledge state
 * @param payload - what was extracted, from which messages, when, and under which limits
 * @returns the new state and its effects (the same state and none when nothing changed)
 * @throws MemoryArgumentError naming the field, for a malformed payload
 * @example
 * ```ts
 * const { state, effects } = factsExtracted(createKnowledge(), {
 *   source: 'relations', at: Date.now(), from: 0, to: 1,
 *   triples: [{ subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 }],
 * });
 * state.relations.length; // 1
 * ```
 */
export const factsExtracted = (
  state: KnowledgeState,
  payload: FactsExtractedPayload,
): KnowledgeTransition => {
  const read = readFactsPayload(payload, 'factsExtracted');
  const cursor = state.cursors[read.source];
  if (read.to < cursor) return { state, effects: NO_EFFECTS };
  const draft = new KnowledgeDraft(state);
  const from = Math.max(read.from, cursor);
  const source: FactSource = { from, to: read.to };
  draft.cursors = { ...state.cursors, [read.source]: read.to + 1 };
  draft.effect({ type: 'knowledge/cursorMoved', source: read.source, from, to: read.to });
  for (const entity of uniqueEntities(read.entities)) mergeEntity(draft, entity, read, source);
  for (const triple of uniqueTriples(read.triples)) mergeTriple(draft, triple, read, source);
  evictBeyond(draft, 'entities', read.limits.maxEntities, read.at);
  evictBeyond(draft, 'relations', read.limits.maxRelations, read.at);
  dropRetiredBeyond(draft, 'entities', read.limits.maxEntities);
  dropRetiredBeyond(draft, 'relations', read.limits.maxRelations);
  return draft.finish();
};
