import type { KnowledgeState } from '../model/knowledge';
import type { FactsDroppedEffect } from '../model/knowledgeEffects';
import { NO_EFFECTS } from '../internal/window';
import type { KnowledgeTransition } from './knowledgeDraft';

/**
 * Removes every fact (reducer of `knowledge/cleared`): the per-user reset, for an agent that
 * serves one user after another. The cursors and the id counter stay (positions and ids are never
 * reused). Each kind removed is reported as `knowledge/dropped` with its ids.
 *
 * @param state - the knowledge state
 * @returns the empty state (with the cursors kept) and its effects
 * @example
 * ```ts
 * clearKnowledge(state).state.entities.length; // 0
 * ```
 */
export const clearKnowledge = (state: KnowledgeState): KnowledgeTransition => {
  const effects: FactsDroppedEffect[] = [];
  if (state.entities.length > 0) {
    effects.push({
      type: 'knowledge/dropped',
      kind: 'entity',
      ids: state.entities.map((e) => e.id),
    });
  }
  const attributeIds = state.entities.flatMap((e) => e.attributes.map((a) => a.id));
  if (attributeIds.length > 0) {
    effects.push({ type: 'knowledge/dropped', kind: 'attribute', ids: attributeIds });
  }
  if (state.relations.length > 0) {
    effects.push({
      type: 'knowledge/dropped',
      kind: 'relation',
      ids: state.relations.map((r) => r.id),
    });
  }
  if (state.entries.length > 0) {
    effects.push({ type: 'knowledge/dropped', kind: 'entry', ids: state.entries.map((e) => e.id) });
  }
  if (effects.length === 0) return { state, effects: NO_EFFECTS };
  const none = Object.freeze([]) as readonly never[];
  return {
    state: Object.freeze({ ...state, entities: none, relations: none, entries: none }),
    effects: Object.freeze(
      effects.map((effect) => Object.freeze({ ...effect, ids: Object.freeze(effect.ids) })),
    ),
  };
};
