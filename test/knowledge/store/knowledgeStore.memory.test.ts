import { describe, expect, it } from 'vitest';
import { MemoryArgumentError } from 'conversation-memory';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { describeValue } from 'conversation-memory/store-kit';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleKnowledge } from '../../arbitraries/knowledge';

knowledgeStoreConformance('InMemoryKnowledgeStore', {
  make: async (options) => new InMemoryKnowledgeStore(options),
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

  it('takes defaultTtl and now, and no other option', () => {
    expect(() => new InMemoryKnowledgeStore({ ttl: 60 } as never)).toThrow(
      'InMemoryKnowledgeStore: options.ttl is not an option (did you mean defaultTtl?)',
    );
    expect(() => new InMemoryKnowledgeStore({ defaultTtl: 0 })).toThrow(
      'InMemoryKnowledgeStore: options.defaultTtl must be a positive number of seconds',
    );
    expect(() => new InMemoryKnowledgeStore({ now: 5 as never })).toThrow(
      'InMemoryKnowledgeStore: options.now must be a function',
    );
  });

  it.each(
    [5, 'x', true, null, [], [1], () => 1, Symbol('s'), 10n].map((v) => [describeValue(v), v]),
  )('options that are not an object (%s) are refused, the value named', (_, options) => {
    const making = () => new InMemoryKnowledgeStore(options as never);
    expect(making).toThrow(MemoryArgumentError);
    expect(making).toThrow(
      `[conversation-memory] InMemoryKnowledgeStore: options must be an object such as { defaultTtl: 3600 }, received ${describeValue(options)}`,
    );
  });
});
