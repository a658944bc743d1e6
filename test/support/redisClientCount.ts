/**
 * Redis drops a connection from `CLIENT LIST` when it reads the socket's end, which can be a moment
 * after the client's `close()` or `destroy()` resolved on our side (a CI run saw the count one
 * higher right after a close). Closing checks poll for that moment instead of reading once.
 */

/**
 * Resolves with the count once `count()` returns `expected`, or with the last count read after
 * `ms` (the caller's `expect` then fails with the value it saw).
 *
 * @example
 * expect(await settledCount(named, before)).toBe(before);
 */
export const settledCount = async (
  count: () => Promise<number>,
  expected: number,
  ms = 5_000,
): Promise<number> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await count();
    if (seen === expected || Date.now() > deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
