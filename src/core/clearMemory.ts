import { positionsOf } from '../internal/positions';
import { EMPTY, makeState, NO_EFFECTS } from '../internal/window';
import type { MemoryEffect, Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';
import { clearKnowledge } from '../knowledge/clearKnowledge';
import { usageOfMessages } from '../internal/callUsage';

/**
 * Empties the window and removes the summary, as the reference's `clear()` (since v0.17.5); also
 * drops the messages held for summarizing and the summary's coverage records. The limits, the
 * policy and the tokenizer stay, and so does `nextPosition`: positions are never reused. What was
 * in the window is reported in a `memory/trimmed` effect with `reason: 'clear'`, and held messages
 * in a `memory/pendingDiscarded` effect, so even a clear loses nothing silently. The conversation's
 * knowledge (`state.knowledge`) is cleared too (`clearKnowledge`: every fact dropped and reported,
 * the extraction cursors kept): the per-user reset leaves nothing of the previous user.
 *
 * A clear starts a new conversation, so `usageOf` starts over at zero: the state's
 * `trimmedUsage` is dropped (it was reported by the trims that removed those messages), and the
 * usage of the window's calls is reported as the `memory/trimmed` effect's `usage`, as a trim
 * reports it; summing `usage` over the effects still counts every call.
 *
 * @param state - the current memory
 * @returns an empty state with the same config, or the same state when already empty
 * @example
 * ```ts
 * const { state, effects } = clearMemory(withHistory);
 * state.messages; // []
 * effects[0]; // { type: 'memory/trimmed', reason: 'clear', removed: [...], ... }
 * ```
 */
export const clearMemory = (state: MemoryState): Transition => {
  state = readState(state, 'clearMemory');
  const knowledge = state.knowledge === undefined ? undefined : clearKnowledge(state.knowledge);
  if (
    state.messages.length === 0 &&
    state.summary === null &&
    state.pendingMessages.length === 0 &&
    state.summaryCoverage.length === 0 &&
    state.trimmedUsage === undefined &&
    (knowledge === undefined || knowledge.state === state.knowledge)
  ) {
    return { state, effects: NO_EFFECTS };
  }
  const effects: MemoryEffect[] = [];
  if (state.messages.length > 0) {
    const usage = usageOfMessages(state.messages);
    effects.push(
      Object.freeze({
        type: 'memory/trimmed',
        reason: 'clear',
        // The state's own array, frozen (in every NODE_ENV) before it is handed out.
        removed: Object.isFrozen(state.messages) ? state.messages : Object.freeze(state.messages),
        positions: Object.freeze(positionsOf(state.positionRuns, state.messages.length)),
        remaining: 0,
        removedTokens: state.totalTokens,
        remainingTokens: 0,
        ...(usage === undefined ? {} : { usage }),
      }),
    );
  }
  if (state.pendingMessages.length > 0) {
    effects.push(
      Object.freeze({
        type: 'memory/pendingDiscarded',
        reason: 'clear',
        messages: state.pendingMessages,
        positions: state.pendingPositions,
      }),
    );
  }
  if (state.summary !== null) {
    effects.push(
      Object.freeze({ type: 'memory/summaryChanged', summary: null, previous: state.summary }),
    );
  }
  const next = makeState({
    config: state.config,
    messages: EMPTY,
    tokenCounts: EMPTY,
    positionRuns: EMPTY,
    nextPosition: state.nextPosition,
    totalTokens: 0,
    summary: null,
    pendingMessages: EMPTY,
    pendingPositions: EMPTY,
    summaryCoverage: EMPTY,
    ...(knowledge === undefined ? {} : { knowledge: knowledge.state }),
  });
  if (knowledge !== undefined) effects.push(...knowledge.effects);
  return { state: next, effects: Object.freeze(effects) };
};
