import { expect } from 'vitest';
import {
  addMessages,
  applySummary,
  clearMemory,
  enforceLimits,
  fixToolPairBoundary,
  setSummary,
  type MemoryState,
  type Message,
  type Transition,
} from 'conversation-memory';
import { sameConfig } from 'conversation-memory/store-kit';

/**
 * Law 5, identity, for one call. The same state back always comes with no effects; and when the
 * call added nothing and the state is deep-equal to the input (nothing changed: window, summary
 * and config), it must be the very same object with an empty effects array.
 */
export const checkIdentity = (
  before: MemoryState,
  added: readonly Message[],
  transition: Transition,
): void => {
  if (transition.state === before) expect(transition.effects).toEqual([]);
  if (added.length === 0) {
    const unchanged =
      transition.state.summary === before.summary &&
      sameConfig(transition.state.config, before.config) &&
      transition.state.messages.length === before.messages.length &&
      transition.state.messages.every((m, i) => m === before.messages[i]);
    if (unchanged) {
      expect(transition.state).toBe(before);
      expect(transition.effects).toEqual([]);
    }
  }
};

/**
 * Law 5, identity, probed: on a settled state (within its limits, boundary fixed, as every add
 * leaves it) these calls change nothing and must return the same object with no effects:
 * `enforceLimits`, `fixToolPairBoundary`, `addMessages(s, [])`, `applySummary(s, '')`,
 * `setSummary(s, s.summary)`, and `clearMemory` of an empty memory without summary.
 */
export const checkNoOpCalls = (state: MemoryState): void => {
  const calls: ReadonlyArray<readonly [string, () => Transition]> = [
    ['enforceLimits', () => enforceLimits(state)],
    ['fixToolPairBoundary', () => fixToolPairBoundary(state)],
    ['addMessages([])', () => addMessages(state, [])],
    ["applySummary('')", () => applySummary(state, '')],
    ['setSummary(same)', () => setSummary(state, state.summary)],
  ];
  for (const [name, call] of calls) {
    const result = call();
    expect(result.state, name).toBe(state);
    expect(result.effects, name).toHaveLength(0);
  }
  if (state.messages.length === 0 && state.summary === null) {
    const cleared = clearMemory(state);
    expect(cleared.state).toBe(state);
    expect(cleared.effects).toHaveLength(0);
  }
};
