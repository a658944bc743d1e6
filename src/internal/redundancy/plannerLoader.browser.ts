import type { RedundancyPlanner } from './slot';

/*
 * The browser build's planner loader (scripts/browserTwins.ts swaps it for `plannerLoader.ts`):
 * no planner, so a chat UI that never prunes by redundancy loads none. `enableRedundantPruning()`
 * from `conversation-memory/pruning` installs it.
 */

/**
 * The planner this build carries: none.
 *
 * @internal
 */
export const bundledPlanner = (): RedundancyPlanner | undefined => undefined;
