import type { MemoryState, Message, Transition } from 'conversation-memory';
import { checkBoundary } from './boundary';
import { checkConservation, checkSummaryEffects } from './conservation';
import { checkEnforceIdempotent } from './enforceLimits';
import { checkIdentity, checkNoOpCalls } from './identity';
import { checkIncremental } from './incrementality';
import { checkLimits } from './limits';
import { checkSerializable } from './serializability';

export { checkBoundary, startsToolExchange } from './boundary';
export { checkConservation, checkSummaryEffects, removedBy } from './conservation';
export { checkEnforceIdempotent } from './enforceLimits';
export { deepFreeze } from './freeze';
export { checkIdentity, checkNoOpCalls } from './identity';
export { checkIncremental } from './incrementality';
export { checkLimits } from './limits';
export { checkPurity } from './purity';
export { checkSerializable, checkStateSerializable } from './serializability';

/**
 * Every law that holds for any reducer call, whatever the input state: conservation (and summary
 * effects), identity, serializability, incrementality and idempotent `enforceLimits`. Purity is
 * checked by making the call through `checkPurity`.
 *
 * @param before - the state given to the reducer
 * @param added - the messages given to it (empty for reducers that add nothing)
 * @param transition - what it returned
 */
export const checkTransitionLaws = (
  before: MemoryState,
  added: readonly Message[],
  transition: Transition,
): void => {
  checkConservation(before, added, transition);
  checkSummaryEffects(before, transition);
  checkIdentity(before, added, transition);
  checkSerializable(transition);
  checkIncremental(transition.state);
  checkEnforceIdempotent(transition.state);
};

/**
 * The laws of a settled state (one reached from `createMemory` by reducer calls): limits,
 * boundary, and the identity of every call that has nothing to do.
 */
export const checkSettledState = (state: MemoryState): void => {
  checkLimits(state);
  checkBoundary(state);
  checkNoOpCalls(state);
};
