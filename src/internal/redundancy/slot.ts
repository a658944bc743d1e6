import type { MemoryConfig } from '../../model/config';
import type { Message } from '../../model/message';
import type { Sequence } from '../sequence';
import type { PlanPlace } from '../trimPlan';
import { shared } from '../../util/shared';
import { bundledPlanner } from './plannerLoader';

/**
 * What the trim plan asks of the redundancy planner (`prune: 'redundant'`). It lives behind this
 * slot so that a chat UI that never prunes by redundancy does not load it: the Node build carries
 * it (`plannerLoader.ts`), the browser build gets it from `enableRedundantPruning()`.
 *
 * @internal
 */
export interface RedundancyPlanner {
  /**
   * Opens the planning of one trim of `sequence` (held messages, then incoming ones) placed by
   * `place`: the held window's index, taken over (or built), with the incoming messages entered.
   */
  open(config: MemoryConfig, sequence: Sequence, place: PlanPlace): RedundancyPlan;
  /**
   * The problems of the pruning options given (`undefined` fields are absent), each naming the
   * field (`names` says how: the option's name or the persisted one) and the value.
   */
  optionProblems(
    fields: { readonly pruneThreshold?: unknown; readonly embedder?: unknown },
    names: 'options' | 'persisted',
  ): string[];
}

/**
 * One trim's use of the index.
 *
 * @internal
 */
export interface RedundancyPlan {
  /**
   * While `over()`, removes the oldest unit that newer twins make redundant, never one from the
   * newest turn (the last user message on) or from index `last` on (the newest unit), calling
   * `remove(i, twinPosition)` for each of its messages. `removed(i)` says an index already
   * leaves, `pinned(i)` that it never does.
   */
  removeWhile(
    over: () => boolean,
    last: number,
    removed: (index: number) => boolean,
    pinned: (index: number) => boolean,
    remove: (index: number, twin: number) => void,
  ): void;
  /**
   * Ends the plan: the index forgets the positions `gone` and is kept for the window `next` (the
   * new state's message list), or dropped when `next` is `undefined`.
   */
  close(gone: readonly number[], next: readonly Message[] | undefined): void;
}

/** The installed planner, shared by every copy of the package in this realm. */
const slot = (): { planner?: RedundancyPlanner } =>
  shared(
    'redundancyPlanner',
    () => ({}),
    (value) => typeof value === 'object' && value !== null,
  );

/**
 * The installed redundancy planner, or `undefined`.
 *
 * @internal
 */
export const redundancyPlanner = (): RedundancyPlanner | undefined =>
  slot().planner ?? bundledPlanner();

/**
 * Installs the redundancy planner (idempotent).
 *
 * @internal
 */
export const installRedundancyPlanner = (planner: RedundancyPlanner): void => {
  slot().planner = planner;
};

/**
 * What a config problem says when `prune: 'redundant'` (or one of its options) is asked for
 * before the planner is there: the browser build leaves it out of the first load.
 *
 * @internal
 */
export const PLANNER_MISSING =
  "prune 'redundant' needs enableRedundantPruning() (conversation-memory/pruning) in browsers";
