import { freeze } from 'immer';
import type { Message } from '../model/message';

/**
 * Whether whole windows are frozen too. Messages and state records are always frozen (that costs
 * O(1) per add); freezing the `messages` and `tokenCounts` arrays walks the whole window, so it is
 * done only outside production, where it catches accidental mutation early. Read once, when the
 * module loads: `process.env.NODE_ENV === 'production'` (replaced by bundlers) turns it off.
 *
 * @internal
 */
export const FREEZE_WINDOWS: boolean = (() => {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    // No `process` (a browser without a bundler): behave as development.
    return true;
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
