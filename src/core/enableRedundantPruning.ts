import { redundancyPlannerImpl } from '../internal/redundancy/planner';
import { installRedundancyPlanner } from '../internal/redundancy/slot';

/**
 * Makes `prune: 'redundant'` available in this runtime. Node needs no call (the planner is part of
 * the package there); the browser build leaves the planner out of a chat UI's first load, so a
 * page that prunes by redundancy calls this once at startup, before creating or loading such a
 * memory. Calling it again is harmless.
 *
 * @example
 * ```ts
 * import { enableRedundantPruning } from 'conversation-memory/pruning';
 * enableRedundantPruning();
 * const state = createMemory({ maxMessages: 50, prune: 'redundant' });
 * ```
 */
export const enableRedundantPruning = (): void => {
  installRedundancyPlanner(redundancyPlannerImpl);
};
