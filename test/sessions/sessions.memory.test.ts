import { describe, expect, it } from 'vitest';
import { addMessage, InMemorySessionStore, userMessage } from 'conversation-memory';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleState } from '../stores/storeSamples';

sessionStoreConformance('InMemorySessionStore', {
  make: async (options) => new InMemorySessionStore(options),
});

describe('InMemorySessionStore', () => {
  it('keeps the very state objects it is given (states are immutable)', async () => {
    const store = new InMemorySessionStore();
    const state = sampleState();
    await store.save('s1', state);
    expect((await store.load('s1'))?.state).toBe(state);
    // A later change makes a new state; the stored one is untouched.
    addMessage(state, userMessage('later'));
    expect((await store.load('s1'))?.state.messages).toHaveLength(2);
  });

  it('rejects calls after close', async () => {
    const store = new InMemorySessionStore();
    await store.close();
    await expect(store.load('s1')).rejects.toThrow('the store is closed');
  });
});

describe('session building blocks', () => {
  it('a store clock that returns something other than a finite number is an error, not a NaN record', async () => {
    const store = new InMemorySessionStore({ now: () => Number.NaN });
    await expect(store.save('s1', sampleState())).rejects.toThrow(
      'options.now() must return Unix seconds as a finite number, returned NaN',
    );
    expect(() => new InMemorySessionStore({ now: 5 as never })).toThrow(
      'options.now must be a function',
    );
  });
});
