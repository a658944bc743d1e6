import type { AgentErrorContext, AgentObserver } from '../types';

/**
 * Reports an error to `config.onError`; an `onError` that throws is ignored (there is nowhere
 * left to report to).
 *
 * @internal
 */
export type ReportError = (error: unknown, context: AgentErrorContext) => void;

/**
 * Calls `event` on every observer that has it, in order, with `args`; awaits the async ones
 * together. An observer that throws or rejects is reported and the others still run.
 *
 * @internal
 */
export const notify = async <E extends keyof AgentObserver>(
  observers: readonly AgentObserver[],
  event: E,
  args: Parameters<NonNullable<AgentObserver[E]>>,
  runId: string,
  report: ReportError,
): Promise<void> => {
  const waiting: Promise<void>[] = [];
  for (const observer of observers) {
    try {
      const method = observer[event] as ((...a: unknown[]) => unknown) | undefined;
      if (typeof method !== 'function') continue;
      const result = method.apply(observer, args);
      if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
        waiting.push(
          Promise.resolve(result).then(
            () => undefined,
            (error: unknown) => report(error, { runId, source: 'observer', event }),
          ),
        );
      }
    } catch (error) {
      report(error, { runId, source: 'observer', event });
    }
  }
  await Promise.all(waiting);
};
