import { memoryTransition } from '../../core/memoryTransition';
import { actionAt, type EventLog, fork, snapshotAt } from '../../log/eventLog';
import type { MemoryEffect } from '../../model/effects';
import type { MemoryState } from '../../model/state';
import type { MaskToolResults, ViewTarget } from '../../view/viewTypes';
import { describeValue } from '../../util/describeValue';
import { knowledgeTimes } from './knowledgeClock';
import type { StepKnowledge } from './knowledgeTypes';
import { stepBlocks, stepKnowledgeOf } from './stepKnowledge';
import { stepModelView, VIEW_TARGETS } from './stepModelView';
import type { StepModelView, WindowView } from './types';
import { stepView } from './windowAt';

/**
 * The windows of a log, step by step, with caches: the page's way to move along a timeline
 * without replaying from the nearest snapshot on every move.
 *
 * @example
 * ```ts
 * const stepper = createStepper(log);
 * stepper.viewAt(7).entries.length;
 * ```
 */
export interface Stepper {
  /** The window at step `n` (`0..log.length`), as {@link windowAt} gives it. */
  readonly viewAt: (n: number) => WindowView;
  /**
   * The model view at step `n` for `target`, as {@link modelViewAt} gives it (the knowledge
   * blocks first, stale tool output masked with `mask`, and with `recallBudget` what the log
   * trimmed before step `n` recalled); after `viewAt(n)` it replays nothing (the state at `n` is
   * cached).
   */
  readonly modelViewAt: (
    n: number,
    target: ViewTarget,
    mask?: MaskToolResults,
    recallBudget?: number,
  ) => StepModelView;
  /**
   * The knowledge at step `n`, as {@link stepKnowledge} gives it (`null` without knowledge);
   * after `viewAt(n)` it replays nothing (the states and the step's effects are cached).
   */
  readonly knowledgeAt: (n: number) => StepKnowledge | null;
  /** How many reducer steps were run so far (for tests: moving by one step costs one). */
  readonly replayed: () => number;
}

/**
 * Cache sizes of a {@link createStepper}: states kept (each shares its messages with its
 * neighbours) and windows kept.
 *
 * @example
 * ```ts
 * const options: StepperOptions = { states: 512, views: 64 };
 * ```
 */
export interface StepperOptions {
  readonly states?: number;
  readonly views?: number;
}

/** A map that forgets its oldest-used entry past `limit`. */
const lru = <V, K = number>(limit: number) => {
  const map = new Map<K, V>();
  return {
    get: (key: K): V | undefined => {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set: (key: K, value: V): void => {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as K);
    },
  };
};

/**
 * A {@link Stepper} over a log. The state at a step is replayed from the nearest known state at
 * or before it (a cached step or the log's snapshot), so moving to a neighbouring step runs one
 * reducer step, and a jump runs at most `snapshotEvery`.
 *
 * @param log - the event log
 * @param options - cache sizes (default 1,024 states, 64 windows)
 * @returns the stepper
 * @throws RangeError from `viewAt` for a step outside `0..log.length`
 * @example
 * ```ts
 * const stepper = createStepper(log);
 * stepper.viewAt(3); stepper.viewAt(4); // the second replays one action
 * stepper.modelViewAt(4, 'openai'); // replays nothing
 * stepper.knowledgeAt(4); // replays nothing
 * ```
 */
export const createStepper = (log: EventLog, options: StepperOptions = {}): Stepper => {
  const states = lru<MemoryState>(options.states ?? 1024);
  const views = lru<{ view: WindowView; effects: readonly MemoryEffect[] }>(options.views ?? 64);
  const modelViews = lru<StepModelView, string>(options.views ?? 64);
  const knowledge = lru<StepKnowledge | null>(options.views ?? 64);
  let times: number[] | undefined;
  let replayed = 0;

  const stateAt = (n: number): MemoryState => {
    const cached = states.get(n);
    if (cached !== undefined) return cached;
    const base = Math.floor(n / log.snapshotEvery) * log.snapshotEvery;
    let from = base;
    let state = snapshotAt(log, base / log.snapshotEvery);
    for (let k = n - 1; k > base; k--) {
      const known = states.get(k);
      if (known !== undefined) {
        from = k;
        state = known;
        break;
      }
    }
    for (let i = from; i < n; i++) {
      const { state: next } = memoryTransition(state, actionAt(log, i));
      replayed++;
      state = next;
      states.set(i + 1, state);
    }
    return state;
  };

  const checkStep = (n: number): void => {
    if (!Number.isInteger(n) || n < 0 || n > log.length) {
      throw new RangeError(
        `step must be an integer from 0 to ${log.length}, received ${describeValue(n)}`,
      );
    }
  };

  /** The window at step `n` and the step's effects. */
  const stepAt = (n: number): { view: WindowView; effects: readonly MemoryEffect[] } => {
    checkStep(n);
    const cached = views.get(n);
    if (cached !== undefined) return cached;
    let step: { view: WindowView; effects: readonly MemoryEffect[] };
    if (n === 0) step = stepView(0, stateAt(0), null);
    else {
      const next = stepView(n, stateAt(n - 1), actionAt(log, n - 1));
      replayed++;
      states.set(n, next.state);
      step = next;
    }
    const entry = { view: step.view, effects: step.effects };
    views.set(n, entry);
    return entry;
  };

  const viewAt = (n: number): WindowView => stepAt(n).view;

  /** The time of step `n` for its knowledge (the log's times, computed once when first asked). */
  const timeAt = (n: number): number => {
    times ??= knowledgeTimes(log);
    return times[n] as number;
  };

  const knowledgeAt = (n: number): StepKnowledge | null => {
    checkStep(n);
    const cached = knowledge.get(n);
    if (cached !== undefined) return cached;
    const { effects } = stepAt(n);
    const after = stateAt(n);
    const at =
      after.knowledge === undefined
        ? null
        : stepKnowledgeOf(
            n === 0 ? null : stateAt(n - 1),
            after,
            effects,
            timeAt(n),
            timeAt(Math.max(0, n - 1)),
          );
    knowledge.set(n, at);
    return at;
  };

  const modelViewAt = (
    n: number,
    target: ViewTarget,
    mask?: MaskToolResults,
    recallBudget?: number,
  ): StepModelView => {
    checkStep(n);
    const t = VIEW_TARGETS.indexOf(target);
    if (t < 0)
      throw new RangeError(
        `target must be one of ${VIEW_TARGETS.join(', ')}, received ${describeValue(target)}`,
      );
    const key = `${n} ${target} ${mask?.keepLast ?? '-'} ${mask?.keepTurns ?? '-'} ${recallBudget ?? '-'}`;
    const cached = modelViews.get(key);
    if (cached !== undefined) return cached;
    const state = stateAt(n);
    let blocks = '';
    if (state.knowledge !== undefined) {
      blocks = knowledge.get(n)?.blocks.text ?? stepBlocks(state, timeAt(n)).text;
    }
    const recall =
      recallBudget === undefined ? undefined : { source: fork(log, n), budget: recallBudget };
    const view = stepModelView(state, target, blocks, mask, recall);
    modelViews.set(key, view);
    return view;
  };

  return { viewAt, modelViewAt, knowledgeAt, replayed: () => replayed };
};
