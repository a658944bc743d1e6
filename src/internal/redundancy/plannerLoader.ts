import { redundancyPlannerImpl } from './planner';
import type { RedundancyPlanner } from './slot';

/*
 * The Node build's planner loader: the planner is part of the package, so `prune: 'redundant'`
 * works without a call. The browser build swaps this file for `plannerLoader.browser.ts` (see
 * scripts/browserTwins.ts), which has none, keeping the planner out of a chat UI's first load.
 */

/**
 * The planner this build carries.
 *
 * @internal
 */
export const bundledPlanner = (): RedundancyPlanner | undefined => redundancyPlannerImpl;
