import { expect } from 'vitest';
import { type MemoryState } from 'conversation-memory';
import { countMessageTokens } from 'conversation-memory/tokens';

/**
 * Law 7, incrementality. One stored count per message; the stored total equals the sum of the
 * stored counts, and each stored count equals a fresh count with the state's tokenizer.
 */
export const checkIncremental = (state: MemoryState): void => {
  expect(state.tokenCounts).toHaveLength(state.messages.length);
  const stored = state.tokenCounts.reduce((total, n) => total + n, 0);
  const recount = state.messages.map((m) => countMessageTokens(state.config.tokenizer, m));
  expect(state.totalTokens).toBe(stored);
  expect([...state.tokenCounts]).toEqual(recount);
};
