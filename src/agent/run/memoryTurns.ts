/** The tail of each memory's queue of runs. */
const tails = new WeakMap<object, Promise<unknown>>();

/**
 * Runs `task` after every earlier task on the same memory has settled, so runs that share a
 * memory take turns instead of interleaving their tool loops. Without a memory it runs at once.
 *
 * @internal
 */
export const takeTurn = <T>(memory: object | undefined, task: () => Promise<T>): Promise<T> => {
  if (memory === undefined) return task();
  const previous = tails.get(memory) ?? Promise.resolve();
  const turn = previous.then(task);
  tails.set(
    memory,
    turn.then(
      () => undefined,
      () => undefined,
    ),
  );
  return turn;
};
