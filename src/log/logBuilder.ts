import { memoryReducer } from '../core/memoryTransition';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import type { MemoryAction } from '../model/actions';
import type { MemoryState } from '../model/state';
import type { EventLog } from './eventLogTypes';
import { vectorFromArray } from './logVector';
import { recordAction } from './recordAction';

/**
 * Builds one event log from a sequence of actions read in order (a decoded envelope, a stored
 * stream), in one pass: each action is recorded as `appendAction` records it and applied once,
 * into plain arrays; `finish` makes the log's lists from them. Linear in the actions, whatever
 * `snapshotEvery` is.
 *
 * @internal
 */
export interface LogBuilder {
  /**
   * Records and applies the next action.
   *
   * @throws MemoryArgumentError for a value that is not a memory action; what `appendAction`
   *   throws for an invalid one. The actions pushed before stay.
   */
  push(action: unknown): void;
  /** The log of every action pushed. */
  finish(): EventLog;
}

/**
 * A {@link LogBuilder} starting from `initial`.
 *
 * @param initial - the log's initial state
 * @param snapshotEvery - checked by the caller
 * @param api - the API named in errors
 * @internal
 */
export const logBuilder = (
  initial: MemoryState,
  snapshotEvery: number,
  api: string,
): LogBuilder => {
  const actions: MemoryAction[] = [];
  const snapshots: MemoryState[] = [initial];
  let head = initial;
  return {
    push(action) {
      const recorded = recordAction(action, api);
      if (recorded === undefined) {
        throw new MemoryArgumentError(
          api,
          `action ${actions.length} must be a memory action, received ${describeValue(action)}`,
        );
      }
      head = memoryReducer(head, recorded);
      actions.push(recorded);
      if (actions.length % snapshotEvery === 0) snapshots.push(head);
    },
    finish: () =>
      Object.freeze({
        snapshotEvery,
        length: actions.length,
        head,
        actions: vectorFromArray(actions),
        snapshots: vectorFromArray(snapshots),
      }),
  };
};
