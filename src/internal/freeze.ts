import { freeze } from 'immer';
import type { Message } from '../model/message';

/**
 * Whether whole windows are frozen too. Messages, effects and state records are always frozen
 * (that costs O(1) per add); freezing the `messages` and `tokenCounts` arrays walks the whole
 * window (about 35 ns per element), so it is done only when `process.env.NODE_ENV` is
 * `'development'` or `'test'` (as bundlers' dev servers and test runners set it), where it catches
 * accidental mutation early. Anywhere else, production or a plain `node` server with `NODE_ENV`
 * unset, adds stay O(pointers) with no freezing walk. Read once, when the module loads.
 *
 * @internal
 */
export const FREEZE_WINDOWS: boolean = (() => {
  try {
    const mode = process.env.NODE_ENV;
    return mode === 'development' || mode === 'test';
  } catch {
    // No `process` (a browser without a bundler's replacement): no window freezing.
    return false;
  }
})();

/**
 * Deep-freezes one message (its tool calls, parameters and parts). Cost is the message's size,
 * paid once when it enters a state.
 *
 * @internal
 */
export const deepFreezeMessage = (message: Message): Message => freeze(message, true);

/**
 * Freezes a freshly built window array in development; returns it untouched in production.
 *
 * @internal
 */
export const freezeWindow = <T>(items: T[]): readonly T[] =>
  FREEZE_WINDOWS ? Object.freeze(items) : items;
