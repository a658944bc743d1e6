import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, userMessage } from 'conversation-memory';

describe('smoke', () => {
  it('adds a message', () => {
    const { state, effects } = addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('abcdefgh'));
    expect(state.messages).toEqual([{ role: 'user', content: 'abcdefgh' }]);
    expect(state.totalTokens).toBe(2);
    expect(effects).toEqual([]);
  });
});
