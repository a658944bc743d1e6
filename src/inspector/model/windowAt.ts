import { summaryMessage } from '../../view/summaryMessage';
import { memoryTransition } from '../../core/memoryTransition';
import { getPositions } from '../../core/selectors';
import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { actionAt, type EventLog, seek } from '../../log/eventLog';
import type { MemoryAction } from '../../model/actions';
import type { MemoryEffect } from '../../model/effects';
import type { MemoryState } from '../../model/state';
import { countMessageTokens } from '../../tokens/registry';
import { removalRules } from './stepEffects';
import { rowOf } from './timelineRows';
import { toolGroupsOf } from './toolGroupsOf';
import type { TrimmedEntry, WindowEntry, WindowView } from './types';

/** The messages of `state`'s window as entries: position, tokens, pinned, tool group. */
const messageEntries = (state: MemoryState): WindowEntry[] => {
  const positions = getPositions(state);
  const groups = toolGroupsOf(state.messages, positions);
  return state.messages.map((message, i) => ({
    kind: 'message',
    message,
    position: positions[i] as number,
    tokens: state.tokenCounts[i] as number,
    pinned: state.config.pinSystem && message.role === 'system',
    group: groups[i] as number | null,
  }));
};

/** The messages trimmed by `effects`, each with its rule and its tokens (counted when it entered). */
const trimmedEntries = (before: MemoryState, effects: readonly MemoryEffect[]): TrimmedEntry[] => {
  const held = new Map<number, number>();
  getPositions(before).forEach((position, i) =>
    held.set(position, before.tokenCounts[i] as number),
  );
  const entries: TrimmedEntry[] = [];
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed') continue;
    const rules = removalRules(effect);
    const twins = effect.reason === 'enforce_limits' ? effect.duplicateOf : undefined;
    effect.removed.forEach((message, i) => {
      const position = effect.positions[i] as number;
      const twin = twins?.[i];
      entries.push({
        message,
        position,
        rule: rules[i] as TrimmedEntry['rule'],
        ...(twin === undefined || twin === null ? {} : { duplicateOf: twin }),
        // A message added and trimmed by the same step was never held: count it as it entered.
        tokens: held.get(position) ?? countMessageTokens(before.config.tokenizer, message),
      });
    });
  }
  return entries;
};

/**
 * The window at step `n` and the state after it, from the state before it and the step's action
 * (`action: null` for step 0, where `start` is the initial state itself). The step that
 * {@link windowAt} and the page's stepper share.
 *
 * @param n - the step
 * @param start - the state at step `n - 1` (at step 0: the initial state)
 * @param action - the log's `n`th action, or `null` for step 0
 * @returns the window at step `n`, the state after the step and the step's effects
 * @example
 * ```ts
 * const { view, state, effects } = stepView(1, seek(log, 0), actionAt(log, 0));
 * ```
 */
export const stepView = (
  n: number,
  start: MemoryState,
  action: MemoryAction | null,
): {
  readonly view: WindowView;
  readonly state: MemoryState;
  readonly effects: readonly MemoryEffect[];
} => {
  let state = start;
  let effects: readonly MemoryEffect[] = [];
  let trimmed: TrimmedEntry[] = [];
  if (action !== null) {
    const transition = memoryTransition(state, action);
    trimmed = trimmedEntries(state, transition.effects);
    ({ state, effects } = transition);
  }
  const injected = summaryMessage(state.summary);
  const entries = messageEntries(state);
  if (injected !== undefined) {
    entries.unshift({
      kind: 'summary',
      message: injected,
      position: null,
      tokens: countMessageTokens(state.config.tokenizer, injected),
      pinned: false,
      group: null,
    });
  }
  const view: WindowView = {
    row: rowOf(n, action, state, effects),
    config: state.config,
    entries,
    trimmed,
    summary: state.summary,
    summaryCoverage: state.summaryCoverage,
    heldPositions: state.pendingPositions,
  };
  return { view, state, effects };
};

/**
 * The window at step `n` as the model receives it: the stored summary injected at index 0 as the
 * agent injects it (`[Conversation Summary] …`, see `summaryMessage`), then every message of the
 * window with its position, token count, whether `pinSystem` pins it and its tool-call group; plus
 * the messages trimmed at that step, each with its rule. Computed on demand from the log's nearest
 * snapshot (`seek`), so at most `snapshotEvery` actions are replayed.
 *
 * @param log - the event log
 * @param n - the step, from 0 (the initial state) to `log.length`
 * @returns the window and that step's row
 * @throws MemoryArgumentError (a `RangeError`) when `n` is outside `0..log.length`
 * @example
 * ```ts
 * const view = windowAt(log, 7);
 * view.entries.map((e) => e.position); // [null, 0, 5, 6, 7] with a summary and a pinned system message
 * ```
 */
export const windowAt = (log: EventLog, n: number): WindowView => {
  if (!Number.isInteger(n) || n < 0 || n > log.length) {
    throw new MemoryArgumentError(
      'windowAt',
      `n must be an integer from 0 to ${log.length} (the log's length), received ${describeValue(n)}`,
    );
  }
  return n === 0
    ? stepView(0, seek(log, 0), null).view
    : stepView(n, seek(log, n - 1), actionAt(log, n - 1)).view;
};
