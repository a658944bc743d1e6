import type { MemoryAction } from '../model/actions';
import type { MemoryEffect } from '../model/effects';
import type { MemoryState } from '../model/state';
import type { LogVector } from './logVector';

/**
 * A conversation as an event log: its initial state plus the actions applied to it, oldest first.
 * A plain immutable record (it survives `JSON.parse(JSON.stringify(log))`; save one with
 * `encodeEnvelope`, which is smaller and checked on load). `head` is the state after every action
 * (what `replay` returns); the state after every `snapshotEvery` actions is kept too, so `seek`
 * replays fewer than `snapshotEvery` actions.
 *
 * Appending is O(1) amortized whatever the log's length and `snapshotEvery` (the lists are
 * persistent tries: an append copies at most 31 pointers, and a path every 32 appends), and a log
 * made from another (`appendAction`, `fork`) shares everything but that with it; no log ever
 * changes, so an older log never sees a later action. Storage is
 * O(actions + actions / snapshotEvery × window): never a state per step.
 *
 * Read the actions with `logActions`, `timeline` or `seek`, not through the fields: `actions` and
 * `snapshots` are lists in a trie layout (see {@link LogVector}).
 *
 * @example
 * ```ts
 * let log = createEventLog({ maxMessages: 20 });
 * log = appendAction(log, memoryActions.messageAdded(userMessage('hi')));
 * replay(log).messages.length; // 1
 * ```
 */
export interface EventLog {
  /** The distance between snapshots: `seek` replays fewer than this many actions. */
  readonly snapshotEvery: number;
  /** How many actions the log holds. */
  readonly length: number;
  /** The state after every action. */
  readonly head: MemoryState;
  /** The actions, oldest first: plain, deep-frozen copies of what was appended. */
  readonly actions: LogVector<MemoryAction>;
  /** Item `k` is the state after the first `k × snapshotEvery` actions (item 0: the start). */
  readonly snapshots: LogVector<MemoryState>;
}

/**
 * Options of `createEventLog`.
 *
 * @example
 * ```ts
 * const options: EventLogOptions = { snapshotEvery: 64 };
 * ```
 */
export interface EventLogOptions {
  /** Keep the state after every this many actions (default 256): `seek` replays fewer. */
  readonly snapshotEvery?: number;
}

/**
 * One step of a `timeline`.
 *
 * @example
 * ```ts
 * const step: TimelineStep = timeline(log)[0];
 * ```
 */
export interface TimelineStep {
  /** 1 for the first action. */
  readonly step: number;
  readonly action: MemoryAction;
  /** The state after this action: what the model would see at this step. */
  readonly state: MemoryState;
  /** What this action did: what was trimmed, and by which rule; summary changes. */
  readonly effects: readonly MemoryEffect[];
}
