import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { AgentStreamEvent } from '../streamEvents';
import type { AgentRunResult } from '../types';
import { EventQueue } from './eventQueue';

/**
 * One signal that aborts when either does (`AbortSignal.any` where the platform has it).
 *
 * @internal
 */
export const linkSignals = (first: AbortSignal | undefined, second: AbortSignal): AbortSignal => {
  if (first === undefined) return second;
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof any === 'function') return any.call(AbortSignal, [first, second]);
  const controller = new AbortController();
  const forward = (signal: AbortSignal) => () => controller.abort(signal.reason);
  for (const signal of [first, second]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', forward(signal), { once: true });
  }
  return controller.signal;
};

/**
 * The async iterable `agent.stream` returns. The run starts when iteration starts (one consumer
 * only), its events arrive in order, then `finish` with the run's result; a run that rejects
 * ends the iteration with its error (after the events it emitted). Leaving the loop early
 * (`break`, `return`, a throw in the loop body) aborts the run, as its `signal` would.
 *
 * @internal
 */
export const streamRun = (
  start: (emit: (event: AgentStreamEvent) => void, signal: AbortSignal) => Promise<AgentRunResult>,
): AsyncIterable<AgentStreamEvent> => {
  let started = false;
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<AgentStreamEvent> => {
      if (started) {
        throw new MemoryArgumentError(
          'agent.stream',
          'a stream can be iterated once; call agent.stream again for another run',
        );
      }
      started = true;
      const queue = new EventQueue<AgentStreamEvent>();
      const controller = new AbortController();
      let finished = false;
      start((event) => queue.push(event), controller.signal).then(
        (result) => {
          finished = true;
          queue.push({ type: 'finish', result });
          queue.close();
        },
        (error: unknown) => {
          finished = true;
          queue.fail(error);
        },
      );
      const inner = queue[Symbol.asyncIterator]();
      return {
        next: () => inner.next(),
        return: async (value?: unknown) => {
          if (!finished) {
            controller.abort(new DOMException('The stream was closed by its reader', 'AbortError'));
          }
          queue.close();
          await inner.return?.();
          return { done: true, value: value as undefined };
        },
      };
    },
  };
};
