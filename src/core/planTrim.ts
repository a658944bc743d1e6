import { readState } from '../internal/readState';
import { planTrimOf, type TrimPlan } from '../internal/trimPlan';
import type { MemoryState } from '../model/state';

export type { TrimPlan } from '../internal/trimPlan';

/**
 * What `enforceLimits` would remove from the window as it is, and by which rule, without
 * removing it: the trim plan every policy shares, as data. Indices refer to `state.messages`.
 *
 * @param state - the memory
 * @returns the plan (`removed` indices ascending, `rules` parallel, `remainingTokens`, and under
 *   `prune: 'redundant'` the twins' positions in `duplicateOf`)
 * @example
 * ```ts
 * const plan = planTrim(loadedOverLimit);
 * plan.removed.map((i) => getPositions(loadedOverLimit)[i]); // positions that would leave
 * ```
 */
export const planTrim = (state: MemoryState): TrimPlan => {
  state = readState(state, 'planTrim');
  const plan = planTrimOf(
    state.config,
    {
      held: state.messages,
      heldCounts: state.tokenCounts,
      incoming: [],
      incomingCounts: [],
      length: state.messages.length,
    },
    state.totalTokens,
    { limits: true, scan: 'full' },
    { runs: state.positionRuns, start: state.nextPosition, api: 'planTrim' },
  );
  // A preview: the redundancy index stays with this window, nothing removed.
  plan.finish([], state.messages);
  return plan.duplicateOf === undefined
    ? { removed: plan.removed, rules: plan.rules, remainingTokens: plan.remainingTokens }
    : {
        removed: plan.removed,
        rules: plan.rules,
        remainingTokens: plan.remainingTokens,
        duplicateOf: plan.duplicateOf,
      };
};
