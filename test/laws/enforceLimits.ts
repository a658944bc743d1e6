import { expect } from 'vitest';
import { enforceLimits, type MemoryState } from 'conversation-memory';

/**
 * `enforceLimits` is idempotent: enforcing an enforced state returns that very state and no
 * effects.
 */
export const checkEnforceIdempotent = (state: MemoryState): void => {
  const once = enforceLimits(state).state;
  const twice = enforceLimits(once);
  expect(twice.state).toBe(once);
  expect(twice.effects).toHaveLength(0);
};
