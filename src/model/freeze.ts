import type { Message } from './message';

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
 * Freezes a tree of plain data (objects, arrays and primitives) in place: every object and array
 * reachable from `root` through own enumerable string keys, `__proto__` included as the data key
 * it is. An object that is already frozen is taken as frozen all the way down and skipped (what
 * this module and `cloneJsonObject` make is), so a sub-object shared by two parts is visited once
 * and a cycle ends where it comes back to an object already frozen. Each object is frozen before
 * its children are read and read once, so the cost is the tree's size; the walk keeps its own
 * stack, so deep nesting cannot overflow the call stack.
 *
 * @param root - the value to freeze (primitives are returned as they are)
 * @returns `root`, frozen
 * @internal
 */
export const deepFreeze = <T>(root: T): T => {
  if (typeof root !== 'object' || root === null || Object.isFrozen(root)) return root;
  const pending: object[] = [Object.freeze(root)];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const record = node as Readonly<Record<string, unknown>>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
        pending.push(Object.freeze(value));
      }
    }
  }
  return root;
};

/**
 * Deep-freezes one message (its tool calls, parameters and parts). Cost is the message's size,
 * paid once when it enters a state.
 *
 * @internal
 */
export const deepFreezeMessage = (message: Message): Message => deepFreeze(message);

/**
 * Freezes a freshly built window array in development; returns it untouched in production.
 *
 * @internal
 */
export const freezeWindow = <T>(items: T[]): readonly T[] =>
  FREEZE_WINDOWS ? Object.freeze(items) : items;
