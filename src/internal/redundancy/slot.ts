import type { MemoryConfig } from '../../model/config';
import type { Message } from '../../model/message';
import type { Sequence } from '../sequence';
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
   * Opens the planning of one trim of `sequence` (held messages, then incoming ones): the held
   * window's index, taken over (or built), with the incoming messages entered.
   */
  open(
    config: MemoryConfig,
    sequence: Sequence,
    positions: SequencePositions,
    api: string,
  ): RedundancyPlan;
}

/**
 * Positions of a sequence's messages: `at(i)` for an index, `indexOf(p)` for a position (-1 when
 * it is not in the sequence).
 *
 * @internal
 */
export interface SequencePositions {
  at(index: number): number;
  indexOf(position: number): number;
}

/**
 * One trim's use of the index.
 *
 * @internal
 */
export interface RedundancyPlan {
  /**
   * The next unit to remove as redundant, oldest first, before index `bound`; `removed(i)` says an
   * index already leaves, `pinned(i)` that it never does. Returns the unit's indices and, parallel,
   * the position of each one's newest twin, or `undefined` when no removable unit is left.
   */
  next(
    bound: number,
    removed: (index: number) => boolean,
    pinned: (index: number) => boolean,
  ): { readonly indices: readonly number[]; readonly twins: readonly number[] } | undefined;
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
 * What a config problem says when `prune: 'redundant'` is asked for before the planner is there.
 *
 * @internal
 */
export const PLANNER_MISSING =
  "needs the redundancy planner, which the browser build leaves out of the first load: call enableRedundantPruning() from 'conversation-memory/pruning' once at startup";
