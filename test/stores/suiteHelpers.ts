/**
 * What the conformance suites share (they are published as `conversation-memory/store-kit/testing`,
 * so this file, like them, imports the library only by its package name).
 */

/**
 * What a promise rejects with; fails the test when it resolves.
 *
 * @example
 * ```ts
 * const error = await rejection(store.load(''));
 * expect(error).toBeInstanceOf(SessionIdError);
 * ```
 */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

/**
 * A clock the tests move by hand, in Unix seconds (a store's `now` option).
 *
 * @example
 * ```ts
 * const clock = manualClock();
 * const store = await hooks.make({ now: clock.now });
 * clock.advance(60);
 * ```
 */
export const manualClock = (
  start = 1_764_500_000,
): { readonly now: () => number; readonly advance: (seconds: number) => number } => {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds) };
};
