import { MemoryArgumentError } from '../../errors/memoryErrors';
import type { AgentStream, AgentStreamEvent } from '../streamEvents';
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
 * What a streaming run is given: `emit` sends an event to the reader; `whenRead` resolves once
 * the reader has taken every event emitted so far and asked for the next (or left), so a run can
 * go no faster than its reader where that matters (a provider's text deltas).
 *
 * @internal
 */
export interface StreamSink {
  readonly emit: (event: AgentStreamEvent) => void;
  readonly whenRead: () => Promise<void>;
}

/**
 * The async iterable `agent.stream` returns. The run starts when iteration starts (one consumer
 * only), its events arrive in order, then `finish` with the run's result; a run that rejects
 * ends the iteration with its error (after the events it emitted). Leaving the loop early
 * (`break`, `return`, a throw in the loop body) aborts the run, as its `signal` would. Once the
 * run's signal has fired (the caller's `signal`, or the reader leaving), no `text-delta` is
 * yielded any more: what the reader has not been given of a reply stays unseen.
 *
 * @param start - starts the run with the sink and the run's signal (the caller's, linked)
 * @param run - the run's id, the caller's `signal` (if any) and the run's `messageId` (if any)
 * @internal
 */
export const streamRun = (
  start: (sink: StreamSink, signal: AbortSignal) => Promise<AgentRunResult>,
  run: {
    readonly runId: string;
    readonly signal: AbortSignal | undefined;
    readonly messageId: string | undefined;
  },
): AgentStream => {
  const given = run.signal;
  let started = false;
  return {
    runId: run.runId,
    messageId: run.messageId,
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
      const signal = linkSignals(given, controller.signal);
      let finished = false;
      const sink: StreamSink = {
        emit: (event) => queue.push(event),
        whenRead: () => queue.whenRead(),
      };
      start(sink, signal).then(
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
      const next = async (): Promise<IteratorResult<AgentStreamEvent>> => {
        for (;;) {
          const item = await inner.next();
          // Aborted: text the reader was not given yet is never given.
          if (item.done !== true && item.value.type === 'text-delta' && signal.aborted) continue;
          return item;
        }
      };
      return {
        next,
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
