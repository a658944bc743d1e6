import { describe, expect, it } from 'vitest';
import { memoryActions } from 'conversation-memory';
import { InMemoryEventStore } from 'conversation-memory';
import { eventStoreConformance } from 'conversation-memory/store-kit/testing';
import { CONFIG, collect } from '../stores/storeSamples';
import { user } from '../helpers';

eventStoreConformance('InMemoryEventStore', {
  make: async (options) => new InMemoryEventStore(options),
});

describe('InMemoryEventStore', () => {
  it('refuses a bad snapshotEvery', () => {
    for (const snapshotEvery of [0, -1, 1.5, '3']) {
      expect(() => new InMemoryEventStore({ snapshotEvery: snapshotEvery as never })).toThrow(
        'options.snapshotEvery',
      );
    }
  });

  it('keeps its own frozen copies: changing the appended objects changes nothing stored', async () => {
    const store = new InMemoryEventStore();
    const message = { role: 'user' as const, content: 'original' };
    const action = { type: 'memory/messageAdded' as const, payload: message };
    await store.append('s1', [action], { expectedVersion: 0, config: CONFIG });
    message.content = 'changed';
    const [entry] = await collect(store.read('s1'));
    expect(entry?.action).toEqual(memoryActions.messageAdded(user('original')));
    expect(Object.isFrozen(entry?.action)).toBe(true);
    expect((await store.load('s1'))?.state.messages[0]?.content).toBe('original');
  });
});
