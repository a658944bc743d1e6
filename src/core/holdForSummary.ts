import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { mergeByPosition } from '../internal/pending';
import { holdsPosition } from '../internal/positions';
import { isSummarized } from '../internal/summarized';
import { readState } from '../internal/readState';
import { NO_EFFECTS } from '../internal/window';
import type { MemoryEffect, TrimmedEffect, Transition } from '../model/effects';
import type { Message } from '../model/message';
import { MAX_PENDING_MESSAGES, type MemoryState } from '../model/state';

const API = 'holdForSummary';

/**
 * What `holdForSummary` reads of a `memory/trimmed` effect: every such effect is one, and so is
 * the `memory/trimHeld` action's payload with its type and reason.
 *
 * @example
 * ```ts
 * const held: HeldTrim = { type: 'memory/trimmed', reason: 'enforce_limits', removed: [], positions: [] };
 * ```
 */
export type HeldTrim = Pick<TrimmedEffect, 'type' | 'reason' | 'removed' | 'positions'>;

const isTrimmedEffect = (value: unknown): value is HeldTrim => {
  if (typeof value !== 'object' || value === null) return false;
  const effect = value as Partial<Record<keyof TrimmedEffect, unknown>>;
  return (
    effect.type === 'memory/trimmed' &&
    (effect.reason === 'enforce_limits' || effect.reason === 'clear') &&
    Array.isArray(effect.removed) &&
    Array.isArray(effect.positions) &&
    effect.removed.length === effect.positions.length &&
    effect.positions.every((p: unknown) => Number.isSafeInteger(p) && (p as number) >= 0)
  );
};

/**
 * Phase one of summarize-on-trim: puts the messages a trim removed aside in the state, where they
 * wait (outside the window: `getHistory` never shows them) until `commitSummary` commits a
 * summary that covers them. A summary that fails or comes back empty then loses nothing: the
 * held messages stay for the next attempt.
 *
 * Pass it the `memory/trimmed` effect of an add (`reason: 'enforce_limits'`); a `'clear'` effect
 * is ignored (a clear means forget), and so are positions already held or already summarized
 * (holding the same effect twice changes nothing, even after a commit; a position counts as
 * summarized when a coverage record with no gap covers it) and positions this memory never gave
 * out or still holds in its window (an effect of another memory, such as a branch). Held messages stay sorted by position. At most
 * {@link MAX_PENDING_MESSAGES} are held: beyond that the oldest are discarded and reported in a
 * `memory/pendingDiscarded` effect, never dropped silently.
 *
 * @param state - the current memory
 * @param trimmed - a `memory/trimmed` effect emitted for this memory
 * @returns the next state with a `memory/heldForSummary` effect, or the same state when nothing
 *   new was held
 * @throws MemoryArgumentError when `trimmed` is not a `memory/trimmed` effect
 * @example
 * ```ts
 * const added = addMessage(state, userMessage('next'));
 * let next = added.state;
 * for (const effect of added.effects) {
 *   if (effect.type === 'memory/trimmed') next = holdForSummary(next, effect).state;
 * }
 * getPendingSummary(next).messages; // what the trim removed, waiting for a summary
 * ```
 */
export const holdForSummary = (state: MemoryState, trimmed: HeldTrim): Transition => {
  state = readState(state, API);
  if (!isTrimmedEffect(trimmed)) {
    throw new MemoryArgumentError(
      API,
      `trimmed must be a memory/trimmed effect (with removed and positions), received ${describeValue(trimmed)}`,
    );
  }
  if (trimmed.reason === 'clear' || trimmed.removed.length === 0) {
    return { state, effects: NO_EFFECTS };
  }
  // Only positions this memory has given out and no longer holds: an effect of another memory
  // (a branch) cannot make the state hold a message twice.
  const removed: Message[] = [];
  const kept: number[] = [];
  trimmed.positions.forEach((position, i) => {
    if (
      position < state.nextPosition &&
      !holdsPosition(state.positionRuns, state.messages.length, position) &&
      !isSummarized(state.summaryCoverage, position)
    ) {
      removed.push(trimmed.removed[i] as Message);
      kept.push(position);
    }
  });
  const merged = mergeByPosition(state.pendingMessages, state.pendingPositions, removed, kept);
  if (merged.added.length === 0) return { state, effects: NO_EFFECTS };
  let messages: readonly Message[] = merged.messages;
  let positions: readonly number[] = merged.positions;
  const effects: MemoryEffect[] = [];
  const excess = messages.length - MAX_PENDING_MESSAGES;
  if (excess > 0) {
    effects.push(
      Object.freeze({
        type: 'memory/pendingDiscarded',
        reason: 'overflow',
        messages: Object.freeze(messages.slice(0, excess)),
        positions: Object.freeze(positions.slice(0, excess)),
      }),
    );
    messages = messages.slice(excess);
    positions = positions.slice(excess);
  }
  const oldest = positions[0] ?? Infinity;
  const held = merged.added.filter((position) => position >= oldest);
  effects.unshift(
    Object.freeze({
      type: 'memory/heldForSummary',
      positions: Object.freeze(held),
      pending: messages.length,
    }),
  );
  const next: MemoryState = Object.freeze({
    ...state,
    pendingMessages: Object.freeze(messages),
    pendingPositions: Object.freeze(positions),
  });
  return { state: next, effects: Object.freeze(effects) };
};
