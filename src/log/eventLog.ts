import { createMemoryFor } from '../core/createMemory';
import { memoryTransition, memoryReducer } from '../core/memoryTransition';
import { readOptionFields } from '../internal/readOptionFields';
import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import type { MemoryAction } from '../model/actions';
import type { MemoryOptions } from '../model/config';
import type { MemoryState } from '../model/state';
import type { EventLog, EventLogOptions, TimelineStep } from './eventLogTypes';
import {
  EMPTY_VECTOR,
  vectorAt,
  vectorForEach,
  vectorFromArray,
  vectorPush,
  vectorTake,
  vectorToArray,
} from './logVector';
import { isSnapshotEvery, MAX_SNAPSHOT_EVERY, readLog } from './readLog';
import { recordAction } from './recordAction';

export type { EventLog, EventLogOptions, TimelineStep } from './eventLogTypes';
export { MAX_SNAPSHOT_EVERY } from './readLog';

/**
 * The default distance between snapshots.
 *
 * @example
 * ```ts
 * DEFAULT_SNAPSHOT_EVERY; // 256
 * ```
 */
export const DEFAULT_SNAPSHOT_EVERY = 256;

/**
 * An empty event log whose initial state is `createMemory(config)`: the config (its tokenizer
 * named) is part of the log, so a replay anywhere counts the same way.
 *
 * @param config - the memory options, as `createMemory` takes them
 * @param options - `snapshotEvery` (an integer from 1 to 65,536, default 256)
 * @returns the log
 * @throws MemoryConfigError for invalid memory options; MemoryArgumentError for `snapshotEvery`,
 *   an unknown option, or options that are not an object or cannot be read (with the error as
 *   `cause`)
 * @example
 * ```ts
 * const log = createEventLog({ maxMessages: 10, tokenizer: 'heuristic' }, { snapshotEvery: 64 });
 * ```
 */
export const createEventLog = (config?: MemoryOptions, options?: EventLogOptions): EventLog => {
  const { snapshotEvery } = readOptionFields(options, ['snapshotEvery'], 'createEventLog', {
    example: '{ snapshotEvery: 64 }',
  });
  return fromState(
    createMemoryFor('createEventLog', config),
    logSnapshotEveryOf(snapshotEvery, 'createEventLog'),
  );
};

/**
 * Reads an event log's `snapshotEvery`: `undefined` is the default (256); else an integer from 1
 * to {@link MAX_SNAPSHOT_EVERY}.
 *
 * @throws MemoryArgumentError naming the value
 * @internal
 */
export const logSnapshotEveryOf = (value: unknown, api: string): number => {
  const snapshotEvery = value ?? DEFAULT_SNAPSHOT_EVERY;
  if (!isSnapshotEvery(snapshotEvery)) {
    throw new MemoryArgumentError(
      api,
      `options.snapshotEvery must be an integer from 1 to ${MAX_SNAPSHOT_EVERY}, received ${describeValue(snapshotEvery)}`,
    );
  }
  return snapshotEvery;
};

/**
 * An empty log starting from `state`.
 *
 * @internal
 */
export const fromState = (state: MemoryState, snapshotEvery: number): EventLog =>
  Object.freeze({
    snapshotEvery,
    length: 0,
    head: state,
    actions: EMPTY_VECTOR,
    snapshots: vectorPush(EMPTY_VECTOR, state, 'createEventLog'),
  });

/**
 * The log with one more action at its end (pure: the given log is unchanged, and so is every log
 * made from it). What is recorded is a plain, deep-frozen copy of the action, its fields read
 * once each: that copy is what is applied to `head` (once) and what `timeline`, `seek`, `fork`
 * and `encodeEnvelope` later see, so changing the caller's object afterwards changes nothing.
 * Every `snapshotEvery` actions the new head is kept as a snapshot. O(1) amortized: nothing is
 * copied in proportion to the log or to `snapshotEvery`.
 *
 * An action whose `type` is a string outside the `memory/` namespace (another slice's action,
 * Redux's `@@redux/INIT`) is left out: the same log comes back. `memoryTransition` ignores such
 * actions too, so a Redux middleware or a store subscriber can hand every action of the store to
 * `appendAction`. Everything else that is not a memory action is refused, because a log that
 * kept it could never be loaded again and leaving it out would drop the caller's change
 * silently: a value that is not an action at all (no string `type`: a message, `null`), an
 * unknown `memory/*` type (`memory/mesageAdded`, with a did-you-mean), and a memory action with an
 * invalid payload.
 *
 * @param log - the log
 * @param action - a memory action (see `memoryActions`)
 * @returns the longer log, or `log` itself for an action of another namespace
 * @throws MemoryArgumentError when `log` is not an event log, for a value that is not an action,
 *   for an unknown `memory/*` type, or for an action whose payload is not that action's (naming
 *   the field and the value); InvalidMessageError for an invalid message; what the reducer
 *   throws. The log is unchanged.
 * @example
 * ```ts
 * log = appendAction(log, memoryActions.summaryApplied('The user is Alice.'));
 * appendAction(log, { type: '@@redux/INIT' } as never) === log; // true
 * appendAction(log, userMessage('hi') as never); // throws: wrap it, memoryActions.messageAdded(…)
 * ```
 */
export const appendAction = (log: EventLog, action: MemoryAction): EventLog => {
  const from = readLog(log, 'appendAction');
  const recorded = recordAction(action, 'appendAction');
  if (recorded === undefined) return log;
  const head = memoryReducer(from.head, recorded);
  const length = from.length + 1;
  return Object.freeze({
    snapshotEvery: from.snapshotEvery,
    length,
    head,
    actions: vectorPush(from.actions, recorded, 'appendAction'),
    snapshots:
      length % from.snapshotEvery === 0
        ? vectorPush(from.snapshots, head, 'appendAction')
        : from.snapshots,
  });
};

/**
 * The action at index `i` (0-based).
 *
 * @throws MemoryArgumentError when `log` is not a log or `i` is outside `0..length - 1`
 * @internal
 */
export const actionAt = (log: EventLog, i: number): MemoryAction => {
  const from = readLog(log, 'actionAt');
  checkIndex('actionAt', 'i', i, from.length - 1);
  return vectorAt(from.actions, i, 'actionAt');
};

/**
 * The `k`th snapshot: the state after the first `k × snapshotEvery` actions (0: the start).
 *
 * @throws MemoryArgumentError when `log` is not a log or `k` is outside the snapshots
 * @internal
 */
export const snapshotAt = (log: EventLog, k: number): MemoryState => {
  const from = readLog(log, 'snapshotAt');
  checkIndex('snapshotAt', 'k', k, from.snapshots.size - 1);
  return vectorAt(from.snapshots, k, 'snapshotAt');
};

/**
 * Every snapshot of the log, as one new array (item `k`: after `k × snapshotEvery` actions).
 *
 * @internal
 */
export const logSnapshots = (log: EventLog): MemoryState[] =>
  vectorToArray(readLog(log, 'logSnapshots').snapshots, 'logSnapshots');

/**
 * The same log with `change` applied to every state it keeps (its snapshots and head): for a
 * reader that must replay it differently (the inspector's page counts tokens from a table).
 *
 * @internal
 */
export const mapLogStates = (
  log: EventLog,
  change: (state: MemoryState) => MemoryState,
): EventLog => {
  const from = readLog(log, 'mapLogStates');
  const snapshots = vectorToArray(from.snapshots, 'mapLogStates').map((state) => change(state));
  return Object.freeze({ ...from, head: change(from.head), snapshots: vectorFromArray(snapshots) });
};

/**
 * Every action of the log, oldest first, as one new array.
 *
 * @param log - the log
 * @returns the actions
 * @throws MemoryArgumentError when `log` is not an event log
 * @example
 * ```ts
 * JSON.stringify(logActions(log));
 * ```
 */
export const logActions = (log: EventLog): MemoryAction[] =>
  vectorToArray(readLog(log, 'logActions').actions, 'logActions');

/**
 * The state after every action of the log (its head, computed as the actions were appended).
 *
 * @param log - the log
 * @returns the final state
 * @throws MemoryArgumentError when `log` is not an event log
 * @example
 * ```ts
 * getHistory(replay(log));
 * ```
 */
export const replay = (log: EventLog): MemoryState => readLog(log, 'replay').head;

const checkIndex = (api: string, name: string, value: number, max: number): void => {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new MemoryArgumentError(
      api,
      `${name} must be an integer from 0 to ${max}, received ${describeValue(value)}`,
    );
  }
};

const checkStep = (api: string, log: EventLog, n: number): void => {
  if (!Number.isInteger(n) || n < 0 || n > log.length) {
    throw new MemoryArgumentError(
      api,
      `n must be an integer from 0 to ${log.length} (the log's length), received ${describeValue(n)}`,
    );
  }
};

/** The state after `n` actions of a checked log: a snapshot, then fewer than K actions. */
const stateAt = (log: EventLog, n: number, api: string): MemoryState => {
  if (n === log.length) return log.head;
  const k = Math.floor(n / log.snapshotEvery);
  let state = vectorAt(log.snapshots, k, api);
  vectorForEach(
    log.actions,
    k * log.snapshotEvery,
    n,
    (action) => {
      state = memoryReducer(state, action);
    },
    api,
  );
  return state;
};

/**
 * The state after the first `n` actions: the nearest snapshot at or before `n`, then at most
 * `snapshotEvery - 1` actions replayed. O(snapshotEvery).
 *
 * @param log - the log
 * @param n - how many actions, from 0 (the initial state) to `log.length`
 * @returns that state
 * @throws MemoryArgumentError (a `RangeError`) when `log` is not an event log or `n` is outside
 *   `0..log.length`
 * @example
 * ```ts
 * seek(log, 0); // the initial state
 * seek(log, log.length) === replay(log); // true
 * ```
 */
export const seek = (log: EventLog, n: number): MemoryState => {
  const from = readLog(log, 'seek');
  checkStep('seek', from, n);
  return stateAt(from, n, 'seek');
};

/**
 * A new log holding the first `n` actions of `log`, to branch from there. It shares every action
 * and snapshot before `n` with `log` (it copies one leaf and one path of each list, and replays
 * fewer than `snapshotEvery` actions for its head); appending to it never changes `log`.
 *
 * @param log - the log
 * @param n - how many actions to keep, from 0 to `log.length`
 * @returns the branch (`log` itself when `n` is its length)
 * @throws MemoryArgumentError (a `RangeError`) when `log` is not an event log or `n` is outside
 *   `0..log.length`
 * @example
 * ```ts
 * const whatIf = appendAction(fork(log, 3), memoryActions.messageAdded(userMessage('instead')));
 * ```
 */
export const fork = (log: EventLog, n: number): EventLog => {
  const from = readLog(log, 'fork');
  checkStep('fork', from, n);
  if (n === from.length) return log;
  const { snapshotEvery } = from;
  return Object.freeze({
    snapshotEvery,
    length: n,
    head: stateAt(from, n, 'fork'),
    actions: vectorTake(from.actions, n, 'fork'),
    snapshots: vectorTake(from.snapshots, Math.floor(n / snapshotEvery) + 1, 'fork'),
  });
};

/**
 * Every step of the log, replayed from its initial state: `timeline(log)[i]` is step `i + 1`, with
 * the action, the state after it and its effects. O(actions); states share their messages.
 *
 * @param log - the log
 * @returns the steps, oldest first
 * @throws MemoryArgumentError when `log` is not an event log
 * @example
 * ```ts
 * for (const { step, effects } of timeline(log)) console.log(step, effects.map((e) => e.type));
 * ```
 */
export const timeline = (log: EventLog): TimelineStep[] => {
  const from = readLog(log, 'timeline');
  const steps: TimelineStep[] = [];
  let state = vectorAt(from.snapshots, 0, 'timeline');
  vectorForEach(
    from.actions,
    0,
    from.length,
    (action, i) => {
      const transition = memoryTransition(state, action);
      state = transition.state;
      steps.push(Object.freeze({ step: i + 1, action, state, effects: transition.effects }));
    },
    'timeline',
  );
  return steps;
};
