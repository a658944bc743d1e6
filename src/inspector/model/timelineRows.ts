import { memoryTransition } from '../../core/memoryTransition';
import { type EventLog, logActions, seek } from '../../log/eventLog';
import type { MemoryAction } from '../../model/actions';
import type { MemoryEffect } from '../../model/effects';
import type { MemoryState } from '../../model/state';
import { actionLabel } from './actionLabel';
import { summaryChange, trimmedCount } from './stepEffects';
import { stepUsageOf } from './stepUsage';
import type { TimelineRow } from './types';

/**
 * The row of one step: the state after it, and the action and effects that led there.
 *
 * @internal
 */
export const rowOf = (
  step: number,
  action: MemoryAction | null,
  state: MemoryState,
  effects: readonly MemoryEffect[],
): TimelineRow => ({
  step,
  action: action === null ? null : action.type,
  label: actionLabel(action),
  messages: state.messages.length,
  maxMessages: state.config.maxMessages,
  tokens: state.totalTokens,
  maxTokens: state.config.maxTokens,
  trimmed: trimmedCount(effects),
  summary: summaryChange(effects),
  held: state.pendingMessages.length,
  usage: stepUsageOf(action),
});

/**
 * Every step of a log as plain data, in one pass: row 0 is the initial state, row `n` the state
 * after the `n`th action. No state is kept per step (each is dropped once its row is made); look
 * at one step's window with `windowAt`.
 *
 * @param log - the event log
 * @returns `log.length + 1` rows, step 0 first
 * @example
 * ```ts
 * for (const row of timelineRows(log)) console.log(row.step, row.label, row.trimmed.count);
 * ```
 */
export const timelineRows = (log: EventLog): TimelineRow[] => {
  let state = seek(log, 0);
  const rows: TimelineRow[] = [rowOf(0, null, state, [])];
  for (const action of logActions(log)) {
    const transition = memoryTransition(state, action);
    state = transition.state;
    rows.push(rowOf(rows.length, action, state, transition.effects));
  }
  return rows;
};
