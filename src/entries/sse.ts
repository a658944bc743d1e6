/**
 * `conversation-memory/sse`: an agent's stream as server-sent events and back (web streams only,
 * so it runs in Node, Deno, Bun, edge runtimes and browsers).
 *
 * @example
 * ```ts
 * import { toServerSentEventsResponse } from 'conversation-memory/sse';
 * const response = toServerSentEventsResponse(agent.stream('Hello'));
 * ```
 *
 * @packageDocumentation
 * @module conversation-memory/sse
 */
export {
  toServerSentEvents,
  toServerSentEventsResponse,
  readServerSentEvents,
  SSE_MAX_EVENT_LENGTH,
  ServerSentEventsError,
} from '../library';
export type { ReadServerSentEventsOptions, ToServerSentEventsOptions } from '../library';
