import { createMemory } from '../core/createMemory';
import { memoryReducer, reduceMemory } from '../core/memoryReducer';
import { MemoryArgumentError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import type { MemoryAction } from '../model/actions';
import type { MemoryOptions } from '../model/config';
import type { MemoryEffect } from '../model/effects';
import type { MemoryState } from '../model/state';

/**
 * A conversation as an event log: its initial state plus the actions applied to it, oldest first.
 * A plain immutable record. The actions are kept in chunks of `snapshotEvery`, and the state after
 * every `snapshotEvery` actions is kept too, so `seek` replays at most `snapshotEvery` actions and
 * `fork` shares every full chunk and snapshot with the log it came from. `head` is the state after
 * every action (what `replay` returns).
 *
 * Storage is O(actions + actions / snapshotEvery × window): never a state per step.
 *
 * @example
 * ```ts
 * let log = createEventLog({ maxMessages: 20 });
 * log = appendAction(log, memoryActions.messageAdded(userMessage('hi')));
 * replay(log).messages.length; // 1
 * ```
 */
export interface EventLog {
  readonly snapshotEvery: number;
  /** The actions, in chunks of `snapshotEvery` (the last one may be shorter). */
  readonly chunks: readonly (readonly MemoryAction[])[];
  /** `snapshots[i]` is the state after the first `i × snapshotEvery` actions (`[0]`: the start). */
  readonly snapshots: readonly MemoryState[];
  /** The state after every action. */
  readonly head: MemoryState;
  /** How many actions the log holds. */
  readonly length: number;
}

/**
 * Options of {@link createEventLog}.
 *
 * @example
 * ```ts
 * const options: EventLogOptions = { snapshotEvery: 64 };
 * ```
 */
export interface EventLogOptions {
  /** Keep the state after every this many actions (default 256): `seek` replays at most this many. */
  readonly snapshotEvery?: number;
}

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
 * The largest distance between snapshots: an append copies the log's last chunk, so a larger one
 * would make building a long log quadratic.
 *
 * @example
 * ```ts
 * MAX_SNAPSHOT_EVERY; // 65536
 * ```
 */
export const MAX_SNAPSHOT_EVERY = 65_536;

/**
 * An empty event log whose initial state is `createMemory(config)`: the config (its tokenizer
 * named) is part of the log, so a replay anywhere counts the same way.
 *
 * @param config - the memory options, as `createMemory` takes them
 * @param options - `snapshotEvery` (an integer ≥ 1, default 256)
 * @returns the log
 * @throws MemoryConfigError for invalid memory options; MemoryArgumentError for `snapshotEvery`
 * @example
 * ```ts
 * const log = createEventLog({ maxMessages: 10, tokenizer: 'heuristic' }, { snapshotEvery: 64 });
 * ```
 */
export const createEventLog = (config?: MemoryOptions, options?: EventLogOptions): EventLog =>
  fromState(createMemory(config), logSnapshotEveryOf(options?.snapshotEvery, 'createEventLog'));

/**
 * Reads an event log's `snapshotEvery`: `undefined` is the default (256); else an integer from 1
 * to {@link MAX_SNAPSHOT_EVERY}.
 *
 * @throws MemoryArgumentError naming the value
 * @internal
 */
export const logSnapshotEveryOf = (value: unknown, api: string): number => {
  const snapshotEvery = value ?? DEFAULT_SNAPSHOT_EVERY;
  if (
    typeof snapshotEvery !== 'number' ||
    !Number.isSafeInteger(snapshotEvery) ||
    snapshotEvery < 1 ||
    snapshotEvery > MAX_SNAPSHOT_EVERY
  ) {
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
    chunks: Object.freeze([]),
    snapshots: Object.freeze([state]),
    head: state,
    length: 0,
  });

/**
 * The log with one more action at its end (pure: the given log is unchanged). The action is
 * applied to `head` once; every `snapshotEvery` actions the new head is kept as a snapshot. Only
 * the last chunk is copied (O(snapshotEvery)).
 *
 * @param log - the log
 * @param action - a memory action (see `memoryActions`)
 * @returns the longer log
 * @throws what the reducer throws for an invalid payload; the log is unchanged
 * @example
 * ```ts
 * log = appendAction(log, memoryActions.summaryApplied('The user is Alice.'));
 * ```
 */
export const appendAction = (log: EventLog, action: MemoryAction): EventLog => {
  const head = reduceMemory(log.head, action);
  const { chunks, snapshotEvery } = log;
  const last = chunks[chunks.length - 1];
  const nextChunks =
    last === undefined || last.length === snapshotEvery
      ? [...chunks, Object.freeze([action])]
      : [...chunks.slice(0, -1), Object.freeze([...last, action])];
  const length = log.length + 1;
  return Object.freeze({
    snapshotEvery,
    chunks: Object.freeze(nextChunks),
    snapshots:
      length % snapshotEvery === 0 ? Object.freeze([...log.snapshots, head]) : log.snapshots,
    head,
    length,
  });
};

/**
 * The action at index `i` (0-based).
 *
 * @internal
 */
export const actionAt = (log: EventLog, i: number): MemoryAction =>
  (log.chunks[Math.floor(i / log.snapshotEvery)] as readonly MemoryAction[])[
    i % log.snapshotEvery
  ] as MemoryAction;

/**
 * Every action of the log, oldest first, as one new array.
 *
 * @param log - the log
 * @returns the actions
 * @example
 * ```ts
 * JSON.stringify(logActions(log));
 * ```
 */
export const logActions = (log: EventLog): MemoryAction[] => log.chunks.flat();

/**
 * The state after every action of the log (its head, computed as the actions were appended).
 *
 * @param log - the log
 * @returns the final state
 * @example
 * ```ts
 * getHistory(replay(log));
 * ```
 */
export const replay = (log: EventLog): MemoryState => log.head;

const checkStep = (api: string, log: EventLog, n: number): void => {
  if (!Number.isInteger(n) || n < 0 || n > log.length) {
    throw new MemoryArgumentError(
      api,
      `n must be an integer from 0 to ${log.length} (the log's length), received ${describeValue(n)}`,
    );
  }
};

/**
 * The state after the first `n` actions: the nearest snapshot at or before `n`, then at most
 * `snapshotEvery - 1` actions replayed. O(snapshotEvery).
 *
 * @param log - the log
 * @param n - how many actions, from 0 (the initial state) to `log.length`
 * @returns that state
 * @throws MemoryArgumentError (a `RangeError`) when `n` is outside `0..log.length`
 * @example
 * ```ts
 * seek(log, 0); // the initial state
 * seek(log, log.length) === replay(log); // true
 * ```
 */
export const seek = (log: EventLog, n: number): MemoryState => {
  checkStep('seek', log, n);
  if (n === log.length) return log.head;
  const k = Math.floor(n / log.snapshotEvery);
  let state = log.snapshots[k] as MemoryState;
  for (let i = k * log.snapshotEvery; i < n; i++) state = reduceMemory(state, actionAt(log, i));
  return state;
};

/**
 * A new log holding the first `n` actions of `log`, to branch from there. It shares every full
 * chunk and every snapshot before `n` with `log` (nothing is copied but the chunk `n` falls in).
 *
 * @param log - the log
 * @param n - how many actions to keep, from 0 to `log.length`
 * @returns the branch
 * @throws MemoryArgumentError (a `RangeError`) when `n` is outside `0..log.length`
 * @example
 * ```ts
 * const whatIf = appendAction(fork(log, 3), memoryActions.messageAdded(userMessage('instead')));
 * ```
 */
export const fork = (log: EventLog, n: number): EventLog => {
  checkStep('fork', log, n);
  if (n === log.length) return log;
  const { snapshotEvery } = log;
  const full = Math.floor(n / snapshotEvery);
  const rest = n % snapshotEvery;
  const chunks = log.chunks.slice(0, full);
  if (rest > 0)
    chunks.push(Object.freeze((log.chunks[full] as readonly MemoryAction[]).slice(0, rest)));
  return Object.freeze({
    snapshotEvery,
    chunks: Object.freeze(chunks),
    snapshots: Object.freeze(log.snapshots.slice(0, full + 1)),
    head: seek(log, n),
    length: n,
  });
};

/**
 * One step of a {@link timeline}.
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

/**
 * Every step of the log, replayed from its initial state: `timeline(log)[i]` is step `i + 1`, with
 * the action, the state after it and its effects. O(actions); states share their messages.
 *
 * @param log - the log
 * @returns the steps, oldest first
 * @example
 * ```ts
 * for (const { step, effects } of timeline(log)) console.log(step, effects.map((e) => e.type));
 * ```
 */
export const timeline = (log: EventLog): TimelineStep[] => {
  const steps: TimelineStep[] = [];
  let state = log.snapshots[0] as MemoryState;
  for (let i = 0; i < log.length; i++) {
    const action = actionAt(log, i);
    const transition = memoryReducer(state, action);
    state = transition.state;
    steps.push(Object.freeze({ step: i + 1, action, state, effects: transition.effects }));
  }
  return steps;
};
