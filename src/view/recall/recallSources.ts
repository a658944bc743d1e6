import { memoryTransition } from '../../core/memoryTransition';
import { vectorAt, vectorForEach } from '../../log/logVector';
import type { EventLog } from '../../log/eventLogTypes';
import type { MemoryAction } from '../../model/actions';
import type { MemoryEffect } from '../../model/effects';
import type { MemoryState } from '../../model/state';
import type { TranscriptEntry } from '../viewTypes';
import { emptyRecallIndex, extendRecallIndex, type RecallIndex } from './recallIndex';

/**
 * `index` after `effects`: the messages of each `memory/trimmed` effect added; a clear
 * (`reason: 'clear'`) starts over, so nothing said before a clear is ever recalled (the agent
 * clears its memory between users).
 *
 * @internal
 */
export const indexTrimmed = (index: RecallIndex, effects: readonly MemoryEffect[]): RecallIndex => {
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed') continue;
    if (effect.reason === 'clear') {
      index = emptyRecallIndex();
      continue;
    }
    const entries: TranscriptEntry[] = effect.removed.map((message, i) => ({
      message,
      position: effect.positions[i] as number,
    }));
    index = extendRecallIndex(index, entries);
  }
  return index;
};

/** The index of what left the window up to a snapshot (keyed by the snapshot's state). */
const atSnapshot = /* @__PURE__ */ new WeakMap<MemoryState, RecallIndex>();

/** The newest log seen after each snapshot: its length, last action, state and index. */
interface TailMark {
  readonly length: number;
  readonly last: MemoryAction;
  readonly state: MemoryState;
  readonly index: RecallIndex;
}
const afterSnapshot = /* @__PURE__ */ new WeakMap<MemoryState, TailMark>();

/**
 * Replays `log`'s actions `from` to `to` - 1 on `state`, adding what they trim to `index`. (The
 * log's states are not used: a replay's effects say what left, which no state says.)
 */
const replayInto = (
  log: EventLog,
  state: MemoryState,
  from: number,
  to: number,
  index: RecallIndex,
): RecallIndex => {
  vectorForEach(
    log.actions,
    from,
    to,
    (action) => {
      const transition = memoryTransition(state, action);
      state = transition.state;
      index = indexTrimmed(index, transition.effects);
    },
    'modelView',
  );
  return index;
};

/**
 * The recall index of an event log: every message its actions trimmed (after its last clear).
 * Built once per snapshot (`snapshotEvery` actions) and kept with it, so a log extended by
 * `appendAction` costs only its new actions: the index at its last snapshot is found by the
 * snapshot, and the one after it by the newest log seen that ends in the same action.
 *
 * @internal
 */
export const recallIndexOfLog = (log: EventLog): RecallIndex => {
  const every = log.snapshotEvery;
  const last = log.snapshots.size - 1;
  let k = last;
  while (k > 0 && !atSnapshot.has(vectorAt(log.snapshots, k, 'modelView'))) k--;
  let index = atSnapshot.get(vectorAt(log.snapshots, k, 'modelView')) ?? emptyRecallIndex();
  for (; k < last; k++) {
    const state = vectorAt(log.snapshots, k, 'modelView');
    index = replayInto(log, state, k * every, (k + 1) * every, index);
    atSnapshot.set(vectorAt(log.snapshots, k + 1, 'modelView'), index);
  }
  const snapshot = vectorAt(log.snapshots, last, 'modelView');
  const start = last * every;
  if (log.length === start) return index;
  const mark = afterSnapshot.get(snapshot);
  let from = start;
  let state = snapshot;
  if (
    mark !== undefined &&
    mark.length <= log.length &&
    vectorAt(log.actions, mark.length - 1, 'modelView') === mark.last
  ) {
    // The same actions up to `mark.length`: go on from there.
    index = mark.index;
    from = mark.length;
    state = mark.state;
  }
  if (from < log.length) index = replayInto(log, state, from, log.length, index);
  afterSnapshot.set(snapshot, {
    length: log.length,
    last: vectorAt(log.actions, log.length - 1, 'modelView'),
    state: log.head,
    index,
  });
  return index;
};

/** The index of an entry list, with how many entries it holds and the last one. */
interface EntriesMark {
  readonly count: number;
  readonly first: TranscriptEntry | undefined;
  readonly last: TranscriptEntry | undefined;
  readonly index: RecallIndex;
}
const ofEntries = /* @__PURE__ */ new WeakMap<readonly TranscriptEntry[], EntriesMark>();
let newestEntries: WeakRef<readonly TranscriptEntry[]> | undefined;

/** Whether `entries` begins with what `mark` indexed (same first and last entry objects). */
const extends_ = (entries: readonly TranscriptEntry[], mark: EntriesMark): boolean =>
  mark.count <= entries.length &&
  entries[0] === mark.first &&
  (mark.count === 0 || entries[mark.count - 1] === mark.last);

/**
 * The recall index of a trimmed history the application keeps (oldest first). Kept per list:
 * the same list grown by `push`, or a new list that begins with the entries of the last one
 * indexed (`[...trimmed, ...more]`), costs only the new entries. `check` reads the entries from
 * an index on (throwing for a bad one) before they are indexed.
 *
 * @internal
 */
export const recallIndexOfEntries = (
  entries: readonly TranscriptEntry[],
  check: (from: number) => void,
): RecallIndex => {
  let mark = ofEntries.get(entries);
  if (mark === undefined || !extends_(entries, mark)) {
    const newest = newestEntries?.deref();
    const previous = newest === undefined ? undefined : ofEntries.get(newest);
    mark = previous !== undefined && extends_(entries, previous) ? previous : undefined;
  }
  check(mark?.count ?? 0);
  const index =
    mark === undefined
      ? extendRecallIndex(emptyRecallIndex(), entries)
      : extendRecallIndex(mark.index, entries.slice(mark.count));
  ofEntries.set(entries, {
    count: entries.length,
    first: entries[0],
    last: entries[entries.length - 1],
    index,
  });
  newestEntries = new WeakRef(entries);
  return index;
};
