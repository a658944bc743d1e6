import { describe, expect, it } from 'vitest';
import {
  ConversationMemory,
  createAgent,
  createMemory,
  setSummary,
  type MemoryEffect,
} from 'conversation-memory';
import {
  clearKnowledge,
  createKnowledge,
  factsExtracted,
  forgotten,
  knowledgeTransition,
} from 'conversation-memory/knowledge';
import { LocalProvider } from 'conversation-memory/testing';

/**
 * A call that changes nothing answers with no effects, and every such answer is the same frozen
 * empty list (one `NO_EFFECTS`, in src/internal/window.ts): the memory's reducers, the knowledge
 * reducers, the object API and the agent allocate nothing for a no-op, and no copy of the
 * constant can drift from the others.
 */
describe('the one empty effect list', () => {
  it('is what every no-op returns, memory and knowledge alike', async () => {
    const state = createMemory({ tokenizer: 'heuristic' });
    const memory = new ConversationMemory({ tokenizer: 'heuristic' });
    const extracted = factsExtracted(createKnowledge(), {
      source: 'entities',
      at: 0,
      from: 0,
      to: 1,
      entities: [{ name: 'Alice', type: 'person', attributes: {} }],
    }).state;
    const noOps: [string, readonly MemoryEffect[]][] = [
      ['setSummary to the same summary', setSummary(state, state.summary).effects],
      ['ConversationMemory.restore of its own state', memory.restore(memory.state)],
      ['clearKnowledge of empty knowledge', clearKnowledge(createKnowledge()).effects],
      ['forgotten of an unknown id', forgotten(createKnowledge(), { id: 'k404', at: 0 }).effects],
      [
        'factsExtracted of messages already read',
        factsExtracted(extracted, { source: 'entities', at: 0, from: 0, to: 0 }).effects,
      ],
      [
        'knowledgeTransition of an action it does not know',
        knowledgeTransition(createKnowledge(), { type: 'knowledge/other' } as never).effects,
      ],
      [
        'agent.clearMemory without a memory',
        await createAgent({ provider: new LocalProvider() }).clearMemory(),
      ],
    ];
    const [, first] = noOps[0] as [string, readonly MemoryEffect[]];
    expect(first).toEqual([]);
    expect(Object.isFrozen(first)).toBe(true);
    for (const [name, effects] of noOps) expect(effects, name).toBe(first);
  });
});
