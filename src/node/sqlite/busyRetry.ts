import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether an error is SQLite saying that another connection holds a lock it needs
 * (`SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`, `SQLITE_LOCKED`, …): the store waits and tries again.
 *
 * @example
 * ```ts
 * isBusyError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })); // true
 * ```
 */
export const isBusyError = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/u.test(code);
};

/** The longest pause between two attempts, in milliseconds. */
const MAX_PAUSE_MS = 100;

/**
 * The `onTimeout` of reads and deletes, which have no conflict to report: the last `SQLITE_BUSY`
 * error itself.
 *
 * @example
 * ```ts
 * await retryWhileBusy(() => read.deferred(), 10_000, rethrowBusy, stillOpen);
 * ```
 */
export const rethrowBusy = (busy: unknown): never => {
  throw busy;
};

/**
 * Runs a synchronous SQLite step, trying again while another connection holds the lock: SQLite's
 * own busy timeout waits a little (blocking), then this waits a random, growing pause (without
 * blocking the event loop) and tries again, until `timeoutMs` have passed. A step is one whole
 * transaction, so an attempt that failed wrote nothing.
 *
 * @param step - the transaction (it throws `SQLITE_BUSY` when it cannot start)
 * @param timeoutMs - how long to keep trying, in milliseconds
 * @param onTimeout - what to throw when the lock stayed taken (receives the last busy error)
 * @param stillOpen - checked before each new attempt (throws when the store was closed meanwhile)
 * @returns what the step returned
 * @example
 * ```ts
 * const revision = await retryWhileBusy(() => save.immediate(), 10_000, (busy) => {
 *   throw new SessionConflictError('save', 's1', 3, 3);
 * });
 * ```
 */
export const retryWhileBusy = async <T>(
  step: () => T,
  timeoutMs: number,
  onTimeout: (busy: unknown) => never,
  stillOpen: () => void = () => undefined,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      if (Date.now() >= deadline) onTimeout(error);
      // Full jitter: writers that collided do not collide again in step.
      const cap = Math.min(MAX_PAUSE_MS, 2 * 2 ** Math.min(attempt, 6));
      await sleep(1 + Math.random() * cap);
      stillOpen();
    }
  }
};
