import { describe, expect, it } from 'vitest';
import { knowledgeActions } from '../../src/actions/knowledgeActions';
import { addMessage, createMemory, memoryTransition, userMessage } from '../../src/entries/index';

describe('knowledgeActions', () => {
  it('builds each action, with type and match', () => {
    const action = knowledgeActions.factsExtracted({
      source: 'relations',
      at: 1,
      from: 0,
      to: 0,
      triples: [{ subject: 'Ada', relation: 'lives_in', object: 'Lyon', confidence: 1 }],
    });
    expect(action.type).toBe('knowledge/factsExtracted');
    expect(knowledgeActions.factsExtracted.type).toBe('knowledge/factsExtracted');
    expect(knowledgeActions.factsExtracted.match(action)).toBe(true);
    expect(knowledgeActions.forgotten.match(action)).toBe(false);
    expect(knowledgeActions.cleared()).toEqual({ type: 'knowledge/cleared' });
    const state = memoryTransition(
      addMessage(createMemory(), userMessage('I live in Lyon')).state,
      action,
    ).state;
    expect(state.knowledge?.relations.map((r) => r.object)).toEqual(['Lyon']);
  });

  it('refuses a bad payload when the action is made, naming the creator and the field', () => {
    expect(() => knowledgeActions.forgotten({ at: 1 } as never)).toThrow(
      /knowledgeActions.forgotten: action.payload must have exactly one of id and content/,
    );
    expect(() =>
      knowledgeActions.remembered({
        id: 'k1',
        content: 'x',
        category: 'general',
        importance: 2,
        persistent: false,
        ttlDays: null,
        metadata: {},
        at: 1,
      }),
    ).toThrow(
      /knowledgeActions.remembered: action.payload.importance must be a number from 0 to 1, received 2/,
    );
  });
});
