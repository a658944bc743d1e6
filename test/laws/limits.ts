import { expect } from 'vitest';
import type { MemoryState } from 'conversation-memory';

/**
 * Law 3, limits. At most `maxMessages` messages, and at most `maxTokens` tokens unless exactly
 * one message remains (the token rule always keeps one).
 */
export const checkLimits = (state: MemoryState): void => {
  const { maxMessages, maxTokens } = state.config;
  expect(state.messages.length).toBeLessThanOrEqual(maxMessages);
  if (maxTokens !== null && state.messages.length !== 1) {
    expect(state.totalTokens).toBeLessThanOrEqual(maxTokens);
  }
};
