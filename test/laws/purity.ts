import { expect } from 'vitest';
import type { MemoryState, Transition } from 'conversation-memory';
import { deepFreeze } from './freeze';

/**
 * Law 1, purity. Deep-freezes the state and every argument, snapshots them with
 * `structuredClone`, calls the reducer (it must not throw), checks that nothing changed, calls it
 * again and checks the second result deep-equals the first.
 *
 * @returns the first call's transition, for the other laws to inspect
 */
export const checkPurity = <A extends readonly unknown[]>(
  reducer: (state: MemoryState, ...args: A) => Transition,
  state: MemoryState,
  ...args: A
): Transition => {
  deepFreeze(state);
  for (const arg of args) deepFreeze(arg);
  const stateBefore = structuredClone(state);
  const argsBefore = structuredClone(args);
  const unchanged = (): void => {
    expect(state).toStrictEqual(stateBefore);
    // Not strict: generated arguments may have a null prototype, which structuredClone drops.
    expect(args).toEqual(argsBefore);
  };
  const first = reducer(state, ...args);
  unchanged();
  const second = reducer(state, ...args);
  expect(second).toStrictEqual(first);
  unchanged();
  return first;
};
