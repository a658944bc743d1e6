import type { JsonObject } from './message';

/**
 * Why a fact stopped being in force. `'superseded'`: a newer value for the same attribute or the
 * same single-valued relation replaced it; `'evicted'`: a limit was exceeded and it had the lowest
 * keep score; `'forgotten'`: `forget` (or a `knowledge/forgotten` action) retired it; `'expired'`:
 * its TTL ran out.
 *
 * @example
 * ```ts
 * const reason: RetireReason = 'superseded';
 * ```
 */
export type RetireReason = 'superseded' | 'evicted' | 'forgotten' | 'expired';

/**
 * A range of message positions a fact was read from (both ends included).
 *
 * @example
 * ```ts
 * const source: FactSource = { from: 4, to: 7 };
 * ```
 */
export interface FactSource {
  readonly from: number;
  readonly to: number;
}

/**
 * What every fact carries: its id, where it came from, how sure the memory is, and two time
 * ranges (milliseconds since the epoch).
 *
 * - `validFrom`/`validTo`: when it held in the world, as far as the conversation says
 *   (`validTo: null` while it holds). Without a date in the conversation, `validFrom` is when it
 *   was learned.
 * - `recordedAt`/`retiredAt`: when the memory learned it and when it stopped believing it
 *   (`retiredAt: null` while in force), with `retiredBy` saying why and `supersededBy` naming the
 *   fact that replaced it.
 * - `mentions`: how many extractions stated it (an identical fact is never stored twice);
 *   `sources`: the message ranges it was read from (the newest {@link MAX_FACT_SOURCES}).
 *
 * @example
 * ```ts
 * const fact: FactRecord = {
 *   id: 'r3', sources: [{ from: 0, to: 1 }], confidence: 1, mentions: 1,
 *   validFrom: 0, validTo: null, recordedAt: 0, retiredAt: null, retiredBy: null, supersededBy: null,
 * };
 * ```
 */
export interface FactRecord {
  readonly id: string;
  readonly sources: readonly FactSource[];
  readonly confidence: number;
  readonly mentions: number;
  readonly validFrom: number;
  readonly validTo: number | null;
  readonly recordedAt: number;
  readonly retiredAt: number | null;
  readonly retiredBy: RetireReason | null;
  readonly supersededBy: string | null;
}

/**
 * One value of an entity's attribute, as a fact: a new value for the same key retires this one.
 *
 * @example
 * ```ts
 * const role: EntityAttribute = { ...fact, key: 'role', value: 'engineer' };
 * ```
 */
export interface EntityAttribute extends FactRecord {
  readonly key: string;
  readonly value: string;
}

/**
 * A named thing the conversation mentions (the reference's `Entity`): a name, the other names it
 * was resolved from (`aliases`), a type (`person`, `organization`, `technology`, `location`,
 * `concept` or `other`), and its attributes, retired values included. `lastMentioned` is when an
 * extraction last named it.
 *
 * @example
 * ```ts
 * const alice: Entity = { ...fact, id: 'e1', name: 'Alice', aliases: [], type: 'person', attributes: [], lastMentioned: 0 };
 * ```
 */
export interface Entity extends FactRecord {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly type: string;
  readonly attributes: readonly EntityAttribute[];
  readonly lastMentioned: number;
}

/**
 * A relationship triple (the reference's `Triple`): `subject --[relation]--> object`, with the ids
 * of the entities its ends were resolved to (`null` when no entity is known by that name), and
 * when an extraction last stated it (`lastMentioned`).
 *
 * @example
 * ```ts
 * const works: Relation = {
 *   ...fact, subject: 'Alice', relation: 'works_at', object: 'Acme', subjectId: 'e1', objectId: 'e2', lastMentioned: 0,
 * };
 * ```
 */
export interface Relation extends FactRecord {
  readonly subject: string;
  readonly relation: string;
  readonly object: string;
  readonly subjectId: string | null;
  readonly objectId: string | null;
  readonly lastMentioned: number;
}

/**
 * A long-term knowledge entry (the reference's `KnowledgeEntry`): its content, category,
 * importance (0 to 1), whether it is protected from eviction (`persistent`), its TTL in days
 * (`null`: none), its metadata, and when it was last restated (`updatedAt`).
 *
 * @example
 * ```ts
 * const entry: KnowledgeEntry = {
 *   ...fact, content: 'Prefers dark mode', category: 'preference', importance: 0.8,
 *   persistent: true, ttlDays: null, metadata: {}, updatedAt: 0,
 * };
 * ```
 */
export interface KnowledgeEntry extends FactRecord {
  readonly content: string;
  readonly category: string;
  readonly importance: number;
  readonly persistent: boolean;
  readonly ttlDays: number | null;
  readonly metadata: JsonObject;
  readonly updatedAt: number;
}

/**
 * Which messages each extractor has read: the position of the next message it will read. A
 * message is read once; a failed extraction leaves its cursor where it was.
 *
 * @example
 * ```ts
 * const cursors: KnowledgeCursors = { entities: 12, relations: 12 };
 * ```
 */
export interface KnowledgeCursors {
  readonly entities: number;
  readonly relations: number;
}

/**
 * The facts of the three knowledge modules as one plain, immutable, JSON-serializable record:
 * entities (with their attributes), relations, long-term entries, retired facts included (each
 * with `retiredAt` set), the extraction cursors, and the number the next fact id is made from.
 * Reducers (`knowledgeTransition` and the actions of `knowledgeActions`) take one and return a new
 * one with effects; a conversation keeps it as `MemoryState.knowledge`.
 *
 * @example
 * ```ts
 * const empty: KnowledgeState = createKnowledge();
 * empty.entities.length; // 0
 * ```
 */
export interface KnowledgeState {
  readonly entities: readonly Entity[];
  readonly relations: readonly Relation[];
  readonly entries: readonly KnowledgeEntry[];
  readonly cursors: KnowledgeCursors;
  readonly nextId: number;
}

/**
 * One entity as an extractor reports it (the reference's answer items: `name`, `entity_type`,
 * `attributes`), with the reference's defaults already applied (`type: 'other'`, `{}`).
 *
 * @example
 * ```ts
 * const found: ExtractedEntity = { name: 'Alice', type: 'person', attributes: { role: 'engineer' } };
 * ```
 */
export interface ExtractedEntity {
  readonly name: string;
  readonly type: string;
  readonly attributes: { readonly [key: string]: string };
}

/**
 * One relationship triple as an extractor reports it (`confidence` defaults to 1;
 * `validFrom`, when the conversation dates the fact, in milliseconds since the epoch).
 *
 * @example
 * ```ts
 * const found: ExtractedTriple = { subject: 'Alice', relation: 'works_at', object: 'Acme', confidence: 1 };
 * ```
 */
export interface ExtractedTriple {
  readonly subject: string;
  readonly relation: string;
  readonly object: string;
  readonly confidence: number;
  readonly validFrom?: number;
}

/**
 * The limits and the policy an extraction is merged under; carried by the action, so a replay
 * merges exactly as the live run did. Defaults: {@link DEFAULT_KNOWLEDGE_LIMITS} and
 * {@link SINGLE_VALUED_RELATIONS}.
 *
 * @example
 * ```ts
 * const limits: KnowledgeLimits = { maxEntities: 50, maxRelations: 200, maxEntries: 50 };
 * ```
 */
export interface KnowledgeLimits {
  readonly maxEntities: number;
  readonly maxRelations: number;
  readonly maxEntries: number;
}

/**
 * The reference's limits: 50 entities (`EntityMemory.max_entities`), 200 triples
 * (`max_triples`), 50 entries (`KnowledgeMemory.max_entries`).
 *
 * @example
 * ```ts
 * DEFAULT_KNOWLEDGE_LIMITS.maxRelations; // 200
 * ```
 */
export const DEFAULT_KNOWLEDGE_LIMITS: KnowledgeLimits = /* @__PURE__ */ Object.freeze({
  maxEntities: 50,
  maxRelations: 200,
  maxEntries: 50,
});

/**
 * Relations that hold one object at a time for a subject: a new object retires the old one
 * (`Alice works_at Acme`, then `Alice works_at Globex`). Other relations accumulate (`knows`
 * Bob, then `knows` Carol). Compared after normalizing (lower case, spaces and hyphens as `_`).
 * An application replaces the list with the `singleValuedRelations` option.
 *
 * @example
 * ```ts
 * SINGLE_VALUED_RELATIONS.includes('works_at'); // true
 * ```
 */
export const SINGLE_VALUED_RELATIONS: readonly string[] = /* @__PURE__ */ Object.freeze([
  'name',
  'is_a',
  'works_at',
  'works_for',
  'employed_by',
  'job_title',
  'lives_in',
  'located_in',
  'based_in',
  'born_in',
  'born_on',
  'married_to',
  'reports_to',
  'age',
  'email',
  'phone',
]);

/**
 * The most source ranges a fact keeps (the newest).
 *
 * @example
 * ```ts
 * MAX_FACT_SOURCES; // 10
 * ```
 */
export const MAX_FACT_SOURCES = 10;
