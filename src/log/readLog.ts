import { MemoryArgumentError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { unreadable } from '../internal/unreadable';
import type { MemoryAction } from '../model/actions';
import type { MemoryState } from '../model/state';
import type { EventLog } from './eventLogTypes';
import { vectorOf, type LogVector } from './logVector';

/**
 * The largest distance between snapshots: `seek` (and the inspector's jumps) replay up to
 * `snapshotEvery - 1` actions, so a larger one would only make them slower. Appending and loading
 * cost the same whatever the distance.
 *
 * @example
 * ```ts
 * MAX_SNAPSHOT_EVERY; // 65536
 * ```
 */
export const MAX_SNAPSHOT_EVERY = 65_536;

/** Whether `value` is an integer from 1 to {@link MAX_SNAPSHOT_EVERY}. */
export const isSnapshotEvery = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isSafeInteger(value) &&
  value >= 1 &&
  value <= MAX_SNAPSHOT_EVERY;

/** What the caller passed, when it is not a log: said so that it points at the fix. */
const looksLikeState = (value: object): boolean => {
  const fields = value as Partial<Record<'messages' | 'config' | 'snapshotEvery', unknown>>;
  return (
    fields.snapshotEvery === undefined &&
    Array.isArray(fields.messages) &&
    typeof fields.config === 'object'
  );
};

/** The log's fields, each read once, checked; or what is wrong. */
const logOf = (value: unknown): EventLog | string => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return describeValue(value);
  const { snapshotEvery, length, head, actions, snapshots } = value as Partial<
    Record<keyof EventLog, unknown>
  >;
  if (!isSnapshotEvery(snapshotEvery)) {
    return looksLikeState(value)
      ? 'a memory state (createEventLog(state.config) starts a log; or encode the state alone)'
      : `an object whose snapshotEvery is ${describeValue(snapshotEvery)}, not an integer from 1 to ${MAX_SNAPSHOT_EVERY}`;
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    return `an object whose length is ${describeValue(length)}, not an integer ≥ 0`;
  }
  if (typeof head !== 'object' || head === null) {
    return `an object whose head is ${describeValue(head)}, not a memory state`;
  }
  const actionList = vectorOf(actions);
  if (typeof actionList === 'string') return `an object whose actions ${actionList}`;
  if (actionList.size !== length) {
    return `an object whose actions hold ${actionList.size} items for a length of ${length}`;
  }
  const snapshotList = vectorOf(snapshots);
  if (typeof snapshotList === 'string') return `an object whose snapshots ${snapshotList}`;
  const expected = Math.floor(length / snapshotEvery) + 1;
  if (snapshotList.size !== expected) {
    return `an object whose snapshots hold ${snapshotList.size} states where its length needs ${expected}`;
  }
  return Object.freeze({
    snapshotEvery,
    length,
    head: head as MemoryState,
    actions: actionList as LogVector<MemoryAction>,
    snapshots: snapshotList as LogVector<MemoryState>,
  });
};

/**
 * Reads an event log given to `api`: its five fields, each read once (a getter or a Proxy trap
 * runs once, and what it throws comes out as a `MemoryArgumentError`), checked to fit together
 * in O(1). Returns them as a new record, which the caller uses instead of `value`. The lists'
 * nodes are checked as they are walked (`vectorAt`, `vectorForEach`).
 *
 * An event log is a value of this shape, as `createEventLog`, `appendAction`, `fork`,
 * `decodeEnvelope` and `exportEventLog` make them and as `JSON.parse(JSON.stringify(log))` gives
 * them back (the inspector's page replays such a copy).
 *
 * @throws MemoryArgumentError naming what was received
 * @internal
 */
export const readLog = (value: unknown, api: string): EventLog => {
  let log: EventLog | string;
  try {
    log = logOf(value);
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, api, 'log');
  }
  if (typeof log === 'string') {
    throw new MemoryArgumentError(
      api,
      `log must be an event log (made by createEventLog, appendAction, fork or decodeEnvelope), received ${log}`,
    );
  }
  return log;
};
