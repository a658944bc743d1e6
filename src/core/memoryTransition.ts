import { NO_EFFECTS } from '../internal/window';
import type { MemoryAction } from '../model/actions';
import type { Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { addMessageWith } from './addMessage';
import { addMessagesWith } from './addMessages';
import { applySummary } from './applySummary';
import { clearMemory } from './clearMemory';
import { commitSummary } from './commitSummary';
import { enforceLimits } from './enforceLimits';
import { fixToolPairBoundary } from './fixToolPairBoundary';
import { holdForSummary } from './holdForSummary';
import { reconfigureWith } from './reconfigure';
import { setSummary } from './setSummary';
import { readState } from '../internal/readState';
import { unreadable } from '../internal/unreadable';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { createKnowledge } from '../knowledge/createKnowledge';
import { knowledgeTransition } from '../knowledge/knowledgeTransition';
import { makeState } from '../internal/window';

/**
 * Applies one action (see {@link MemoryAction}) with its reducer: the reducers as one function,
 * for stores, event logs and replays. An action of any other type (another slice's, a Redux
 * `@@INIT`) returns the same state and no effects.
 *
 * @param state - the current memory
 * @param action - a memory action, or any other action
 * @returns the reducer's transition
 * @throws what the reducer throws for an invalid payload (e.g. `InvalidMessageError`)
 * @example
 * ```ts
 * const { state, effects } = memoryTransition(createMemory(), memoryActions.messageAdded(userMessage('hi')));
 * ```
 */
export const memoryTransition = (state: MemoryState, action: MemoryAction): Transition =>
  reduce(state, action, true, 'memoryTransition');

const reduce = (
  state: MemoryState,
  action: MemoryAction,
  withEffects: boolean,
  api: string,
): Transition => {
  if (typeof action !== 'object' || action === null) return unchanged(state, api);
  // Read once, and safely: an action can come from anywhere (a Proxy, a getter that throws).
  const type = read(action, 'type', 'action', api);
  switch (type) {
    // The adds are most of any log: a replay that keeps only states skips building their effects.
    case 'memory/messageAdded':
      return addMessageWith(
        state,
        read(action, 'payload', 'action', api) as never,
        withEffects,
        type,
      );
    case 'memory/messagesAdded':
      return addMessagesWith(
        state,
        read(action, 'payload', 'action', api) as never,
        withEffects,
        type,
      );
    case 'memory/limitsEnforced':
      return enforceLimits(state);
    case 'memory/toolPairBoundaryFixed':
      return fixToolPairBoundary(state);
    case 'memory/summaryApplied':
      return applySummary(state, read(action, 'payload', 'action', api) as never);
    case 'memory/summarySet':
      return setSummary(state, read(action, 'payload', 'action', api) as never);
    case 'memory/cleared':
      return clearMemory(state);
    case 'memory/trimHeld': {
      const payload = read(action, 'payload', 'action', api);
      // holdForSummary checks the shape (lists of messages and positions of one length).
      return holdForSummary(state, {
        type: 'memory/trimmed',
        reason: 'enforce_limits',
        removed: read(payload, 'removed', 'action.payload', api) as never,
        positions: read(payload, 'positions', 'action.payload', api) as never,
      });
    }
    case 'memory/summaryCommitted': {
      const payload = read(action, 'payload', 'action', api);
      return commitSummary(
        state,
        read(payload, 'text', 'action.payload', api) as never,
        read(payload, 'through', 'action.payload', api) as never,
      );
    }
    case 'memory/reconfigured':
      return reconfigureWith(
        state,
        read(action, 'payload', 'action', api) as never,
        withEffects,
        type,
      );
    case 'knowledge/factsExtracted':
    case 'knowledge/remembered':
    case 'knowledge/forgotten':
    case 'knowledge/cleared':
      return withKnowledge(state, action, api);
    default:
      return unchanged(state, api);
  }
};

/** A knowledge action, applied to the conversation's knowledge (the empty knowledge when none). */
const withKnowledge = (state: MemoryState, action: MemoryAction, api: string): Transition => {
  state = readState(state, api);
  if (read(action, 'type', 'action', api) === 'knowledge/factsExtracted') {
    // An extraction reads messages of this conversation: none past the last position given.
    const to = read(read(action, 'payload', 'action', api), 'to', 'action.payload', api);
    if (typeof to === 'number' && to >= state.nextPosition) {
      throw new MemoryArgumentError(
        api,
        `action.payload.to (${to}) must be below the conversation's next position (${state.nextPosition}): an extraction reads messages the memory has had`,
      );
    }
  }
  const before = state.knowledge ?? createKnowledge();
  const { state: knowledge, effects } = knowledgeTransition(before, {
    type: read(action, 'type', 'action', api),
    payload: read(action, 'payload', 'action', api),
  } as never);
  if (knowledge === before) return { state, effects: NO_EFFECTS };
  return { state: makeState({ ...state, knowledge }), effects };
};

/** Field `key` of `value` (undefined when `value` is not an object); a throwing read is ours. */
const read = (value: unknown, key: string, what: string, api: string): unknown => {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, `${what}.${key}`);
  }
};

/** Another slice's action: the same state (checked), no effects. */
const unchanged = (state: MemoryState, api: string): Transition => ({
  state: readState(state, api),
  effects: NO_EFFECTS,
});

/**
 * {@link memoryTransition} for stores whose reducers must return the state itself (Redux, Zustand):
 * the effects are dropped. Unknown actions return the same state.
 *
 * @param state - the current memory
 * @param action - a memory action, or any other action
 * @returns the next state
 * @example
 * ```ts
 * const next = memoryReducer(state, memoryActions.cleared());
 * ```
 */
export const memoryReducer = (state: MemoryState, action: MemoryAction): MemoryState =>
  reduce(state, action, false, 'memoryReducer').state;
