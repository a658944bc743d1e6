import type { KnowledgeState } from '../model/knowledge';
import type { KnowledgeAction } from '../model/knowledgeActions';
import { NO_EFFECTS } from '../internal/window';
import { clearKnowledge } from './clearKnowledge';
import { factsExtracted } from './factsExtracted';
import { forgotten } from './forgotten';
import type { KnowledgeTransition } from './knowledgeDraft';
import { remembered } from './remembered';

/**
 * Applies one knowledge action (`knowledge/factsExtracted`, `knowledge/remembered`,
 * `knowledge/forgotten`, `knowledge/cleared`) and returns the new state with its effects; any
 * other action leaves the state as it is. `memoryTransition` calls it for a conversation's
 * `state.knowledge`, so the memory's event log, event stores and inspector replay facts like
 * messages.
 *
 * @param state - the knowledge state
 * @param action - the action
 * @returns the new state and its effects
 * @throws MemoryArgumentError naming the field, for a malformed payload
 * @example
 * ```ts
 * const { state } = knowledgeTransition(createKnowledge(), {
 *   type: 'knowledge/remembered',
 *   payload: { id: 'k-1', content: 'Likes tea', category: 'preference', importance: 0.5,
 *     persistent: false, ttlDays: null, metadata: {}, at: 0 },
 * });
 * state.entries.length; // 1
 * ```
 */
export const knowledgeTransition = (
  state: KnowledgeState,
  action: KnowledgeAction,
): KnowledgeTransition => {
  switch (action.type) {
    case 'knowledge/factsExtracted':
      return factsExtracted(state, action.payload);
    case 'knowledge/remembered':
      return remembered(state, action.payload);
    case 'knowledge/forgotten':
      return forgotten(state, action.payload);
    case 'knowledge/cleared':
      return clearKnowledge(state);
    default:
      return { state, effects: NO_EFFECTS };
  }
};
