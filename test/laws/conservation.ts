import { expect } from 'vitest';
import {
  type MemoryEffect,
  type MemoryState,
  type Message,
  type TrimmedEffect,
  type Transition,
} from 'conversation-memory';
import { countMessageTokens } from 'conversation-memory/tokens';

const isTrimmed = (effect: MemoryEffect): effect is TrimmedEffect =>
  effect.type === 'memory/trimmed';

/** The messages a transition reports as removed, in effect order. */
export const removedBy = (transition: Transition): Message[] =>
  transition.effects.filter(isTrimmed).flatMap((effect) => effect.removed);

const sumTokens = (state: MemoryState, messages: readonly Message[]): number =>
  messages.reduce((total, m) => total + countMessageTokens(state.config.tokenizer, m), 0);

/**
 * Law 2, conservation. Every message that leaves appears, in order, in exactly one
 * `memory/trimmed` effect: removed ++ kept = previous window ++ added. A call reports at most one
 * trim, never an empty one, and its counts (`remaining`, `removedTokens`, `remainingTokens`,
 * `breakdown`) agree with the states. Messages that were already in the window are moved, not
 * copied: removed and kept ones are the very same objects.
 *
 * @param before - the state given to the reducer
 * @param added - the messages given to it (empty for reducers that add nothing)
 * @param transition - what it returned
 */
export const checkConservation = (
  before: MemoryState,
  added: readonly Message[],
  transition: Transition,
): void => {
  const after = transition.state;
  const trims = transition.effects.filter(isTrimmed);
  const removed = removedBy(transition);
  expect([...removed, ...after.messages]).toEqual([...before.messages, ...added]);
  expect(trims.length).toBeLessThanOrEqual(1);
  for (const trim of trims) {
    expect(trim.removed.length).toBeGreaterThan(0);
    expect(trim.remaining).toBe(after.messages.length);
    expect(trim.remainingTokens).toBe(after.totalTokens);
    // Counted with the tokenizer of the state after (`reconfigure` may change it; its trim is
    // planned, and reported, in the new tokenizer's counts).
    expect(trim.removedTokens).toBe(sumTokens(after, trim.removed));
    if (trim.reason === 'enforce_limits') {
      const { messageLimit, tokenLimit, toolPairBoundary, startOn } = trim.breakdown;
      for (const n of [messageLimit, tokenLimit, toolPairBoundary, startOn]) {
        expect(Number.isInteger(n) && n >= 0).toBe(true);
      }
      expect(messageLimit + tokenLimit + toolPairBoundary + startOn).toBe(trim.removed.length);
      expect(trim.positions).toHaveLength(trim.removed.length);
      expect(trim.rules).toHaveLength(trim.removed.length);
    } else {
      expect(after.messages).toHaveLength(0);
    }
  }
  const held = before.messages.length;
  removed.forEach((message, i) => {
    if (i < held) expect(message).toBe(before.messages[i]);
  });
  after.messages.forEach((message, i) => {
    const origin = i + removed.length;
    if (origin < held) expect(message).toBe(before.messages[origin]);
  });
};

/**
 * The summary half of "nothing changes silently": a `memory/summaryChanged` effect is emitted
 * exactly when the summary changed, with the right `previous` and `summary`.
 */
export const checkSummaryEffects = (before: MemoryState, transition: Transition): void => {
  const changes = transition.effects.filter((e) => e.type === 'memory/summaryChanged');
  if (transition.state.summary === before.summary) {
    expect(changes).toEqual([]);
  } else {
    expect(changes).toEqual([
      {
        type: 'memory/summaryChanged',
        summary: transition.state.summary,
        previous: before.summary,
      },
    ]);
  }
};
