import type { KnowledgeState } from '../model/knowledge';

const NONE = /* @__PURE__ */ Object.freeze([]) as readonly never[];

const EMPTY: KnowledgeState = /* @__PURE__ */ Object.freeze({
  entities: NONE,
  relations: NONE,
  entries: NONE,
  cursors: /* @__PURE__ */ Object.freeze({ entities: 0, relations: 0 }),
  nextId: 1,
});

/**
 * The empty knowledge state: no entity, relation or entry, both cursors at position 0.
 *
 * @returns the (shared, frozen) empty state
 * @example
 * ```ts
 * const knowledge = createKnowledge();
 * knowledge.cursors; // { entities: 0, relations: 0 }
 * ```
 */
export const createKnowledge = (): KnowledgeState => EMPTY;
