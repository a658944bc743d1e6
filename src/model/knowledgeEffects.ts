import type { Entity, EntityAttribute, KnowledgeEntry, Relation, RetireReason } from './knowledge';

/**
 * The kind of a fact: an entity, one of its attributes, a relation, or a knowledge entry.
 *
 * @example
 * ```ts
 * const kind: FactKind = 'relation';
 * ```
 */
export type FactKind = 'entity' | 'attribute' | 'relation' | 'entry';

/**
 * How a reported fact met the stored ones. For entities: `'name'` (the same normalized name),
 * `'alias'` (one of its aliases), `'nearDuplicate'` (a name whose shingles' estimated Jaccard
 * similarity reached the threshold); for the other kinds, `'identical'` (the same fact in force).
 *
 * @example
 * ```ts
 * const how: MergeRule = 'alias';
 * ```
 */
export type MergeRule = 'name' | 'alias' | 'nearDuplicate' | 'identical';

/**
 * A fact the memory learned.
 *
 * @example
 * ```ts
 * const effect: FactAddedEffect = { type: 'knowledge/added', kind: 'relation', fact: relation };
 * ```
 */
export interface FactAddedEffect {
  readonly type: 'knowledge/added';
  readonly kind: FactKind;
  readonly fact: Entity | EntityAttribute | Relation | KnowledgeEntry;
}

/**
 * A reported fact that was already known: its mentions and sources grew instead of a copy being
 * stored. `name` is the name as reported (for entities), `similarity` the estimate that matched
 * (for `'nearDuplicate'`).
 *
 * @example
 * ```ts
 * const effect: FactMergedEffect = { type: 'knowledge/merged', kind: 'entity', id: 'e1', rule: 'alias', name: 'Ali' };
 * ```
 */
export interface FactMergedEffect {
  readonly type: 'knowledge/merged';
  readonly kind: FactKind;
  readonly id: string;
  readonly rule: MergeRule;
  readonly name?: string;
  readonly similarity?: number;
}

/**
 * A fact the memory stopped believing, and why; it stays in the state with `retiredAt` set.
 * `by` is the fact that superseded it; `score` the keep score it was evicted with.
 *
 * @example
 * ```ts
 * const effect: FactRetiredEffect = { type: 'knowledge/retired', kind: 'relation', id: 'r1', reason: 'superseded', by: 'r4' };
 * ```
 */
export interface FactRetiredEffect {
  readonly type: 'knowledge/retired';
  readonly kind: FactKind;
  readonly id: string;
  readonly reason: RetireReason;
  readonly by?: string;
  readonly score?: number;
}

/**
 * Retired facts removed from the state for good: each kind keeps at most as many retired facts
 * as its limit (the most recently retired).
 *
 * @example
 * ```ts
 * const effect: FactsDroppedEffect = { type: 'knowledge/dropped', kind: 'entry', ids: ['k1'] };
 * ```
 */
export interface FactsDroppedEffect {
  readonly type: 'knowledge/dropped';
  readonly kind: FactKind;
  readonly ids: readonly string[];
}

/**
 * An extractor's cursor moved: the messages from `from` to `to` (positions, both included) were
 * read and will not be read again.
 *
 * @example
 * ```ts
 * const effect: CursorMovedEffect = { type: 'knowledge/cursorMoved', source: 'entities', from: 0, to: 3 };
 * ```
 */
export interface CursorMovedEffect {
  readonly type: 'knowledge/cursorMoved';
  readonly source: 'entities' | 'relations';
  readonly from: number;
  readonly to: number;
}

/**
 * Every effect of the knowledge reducers.
 *
 * @example
 * ```ts
 * const kinds = effects.filter((e): e is KnowledgeEffect => e.type.startsWith('knowledge/'));
 * ```
 */
export type KnowledgeEffect =
  FactAddedEffect | FactMergedEffect | FactRetiredEffect | FactsDroppedEffect | CursorMovedEffect;
