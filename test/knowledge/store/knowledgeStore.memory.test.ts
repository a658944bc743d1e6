import { describe, expect, it } from 'vitest';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleKnowledge } from '../../arbitraries/knowledge';

knowledgeStoreConformance('InMemoryKnowledgeStore', {
  make: async () => new InMemoryKnowledgeStore(),
});

describe('InMemoryKnowledgeStore', () => {
  it('keeps the checked, frozen copy it made on save: every load returns that same object', async () => {
    const store = new InMemoryKnowledgeStore();
    const state = sampleKnowledge();
    await store.save('u1', state);
    const first = await store.load('u1');
    expect(first?.state).not.toBe(state);
    expect((await store.load('u1'))?.state).toBe(first?.state);
  });

  it('takes no options', () => {
    expect(() => new InMemoryKnowledgeStore({ ttl: 60 } as never)).toThrow(
      'InMemoryKnowledgeStore: options.ttl is not an option',
    );
  });
});
