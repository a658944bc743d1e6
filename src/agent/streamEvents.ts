import type { MemoryEffect } from '../model/effects';
import type { JsonObject } from '../model/message';
import type { AgentRunResult } from './types';

/**
 * One event of `agent.stream`, named as the Vercel AI SDK names its stream parts:
 *
 * - `text-delta`: a piece of the assistant's text, as the provider streams it;
 * - `tool-call`: a complete tool call of the model (`input` is its arguments);
 * - `tool-result`: the result of a tool call, as the model will see it (`isError` when the tool
 *   threw, was unknown, or was not run);
 * - `memory-effect`: an effect of the memory, as it happens (an add, a trim, a summary);
 * - `finish`: last, with the same result `run` resolves to.
 *
 * @example
 * ```ts
 * for await (const event of agent.stream('hi')) {
 *   if (event.type === 'text-delta') process.stdout.write(event.text);
 *   if (event.type === 'finish') console.log('\n', event.result.iterations);
 * }
 * ```
 */
export type AgentStreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: JsonObject;
    }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly output: string;
      readonly isError: boolean;
    }
  | { readonly type: 'memory-effect'; readonly effect: MemoryEffect }
  | { readonly type: 'finish'; readonly result: AgentRunResult };

/**
 * What `agent.stream` returns: the run's events as an async iterable (iterated once; the run
 * starts when the iteration starts), with the run's ids known before it starts: `runId` (the
 * option, else the one made for the run) and `messageId` (`RunOptions.messageId`: the id of
 * every message the run records, and of the UI message that shows the reply; `undefined` when
 * not given). `toUIMessageStream` (`conversation-memory/ai-sdk`) announces `messageId` as the
 * streamed message's id.
 *
 * @example
 * ```ts
 * const stream = agent.stream('hi', { messageId: crypto.randomUUID() });
 * stream.messageId; // the id the reply is recorded with
 * for await (const event of stream) console.log(event.type);
 * ```
 */
export interface AgentStream extends AsyncIterable<AgentStreamEvent> {
  readonly runId: string;
  readonly messageId: string | undefined;
}
