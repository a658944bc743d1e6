import { expect } from 'vitest';
import {
  getPositions,
  type MemoryState,
  type TrimmedEffect,
  type Transition,
} from 'conversation-memory';
import { countMessageTokens } from 'conversation-memory/tokens';
import { checkBoundary } from './boundary';
import { checkConservation, checkSummaryEffects } from './conservation';
import { checkEnforceIdempotent } from './enforceLimits';
import { checkIdentity, checkNoOpCalls } from './identity';
import { checkIncremental } from './incrementality';
import { checkLimits } from './limits';
import { checkSerializable } from './serializability';

/**
 * The laws of one `reconfigure` call, under any policy before and after:
 *
 * - conservation by position: the positions of the window before are exactly those kept plus
 *   those the one trim effect reports, each message the very same object; when the trim is a
 *   prefix of the window, the ordered law of the other reducers (`checkConservation`) too;
 * - the effects: a `memory/reconfigured` effect first (`from`, `to`) exactly when the config
 *   changed, then at most one trim; the held messages, the summary and `nextPosition` untouched;
 * - identity, serializability, incrementality (a full recount with the new tokenizer), an
 *   idempotent `enforceLimits`, and, under the reference policy, the limits and the boundary.
 */
export const checkReconfigureLaws = (before: MemoryState, transition: Transition): void => {
  const after = transition.state;
  const trims = transition.effects.filter((e): e is TrimmedEffect => e.type === 'memory/trimmed');
  expect(trims.length).toBeLessThanOrEqual(1);
  const trim = trims[0];
  const beforePositions = getPositions(before);
  const afterPositions = getPositions(after);
  const gone = new Map<number, unknown>();
  trim?.positions.forEach((position, i) => gone.set(position, trim.removed[i]));
  let kept = 0;
  beforePositions.forEach((position, i) => {
    const message = before.messages[i];
    if (gone.has(position)) {
      expect(gone.get(position)).toBe(message);
    } else {
      expect(afterPositions[kept]).toBe(position);
      expect(after.messages[kept]).toBe(message);
      kept++;
    }
  });
  expect(kept).toBe(after.messages.length);
  expect(gone.size + kept).toBe(before.messages.length);
  if (trim !== undefined) {
    expect(trim.remaining).toBe(after.messages.length);
    expect(trim.remainingTokens).toBe(after.totalTokens);
    expect(trim.removedTokens).toBe(
      trim.removed.reduce((n, m) => n + countMessageTokens(after.config.tokenizer, m), 0),
    );
    const prefix = trim.positions.every((position, i) => position === beforePositions[i]);
    if (prefix) checkConservation(before, [], transition);
  }

  const changed = transition.state.config !== before.config;
  if (changed) {
    expect(transition.effects[0]).toEqual({
      type: 'memory/reconfigured',
      from: before.config,
      to: after.config,
    });
    expect(transition.effects).toHaveLength(1 + trims.length);
  } else {
    expect(transition.state).toBe(before);
    expect(transition.effects).toEqual([]);
  }
  expect(after.pendingMessages).toBe(before.pendingMessages);
  expect(after.pendingPositions).toBe(before.pendingPositions);
  expect(after.summaryCoverage).toBe(before.summaryCoverage);
  expect(after.nextPosition).toBe(before.nextPosition);

  checkSummaryEffects(before, transition);
  checkIdentity(before, [], transition);
  checkSerializable(transition);
  checkIncremental(after);
  checkEnforceIdempotent(after);
  const { toolPairs, startOn, pinSystem } = after.config;
  if (toolPairs === 'reference' && startOn === null && !pinSystem) {
    checkLimits(after);
    checkBoundary(after);
    checkNoOpCalls(after);
  }
};
