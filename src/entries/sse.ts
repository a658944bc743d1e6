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
export { toServerSentEvents } from '../agent/sse/toServerSentEvents';
export { toServerSentEventsResponse } from '../agent/sse/toServerSentEventsResponse';
export { readServerSentEvents, SSE_MAX_EVENT_LENGTH } from '../agent/sse/readServerSentEvents';
export { ServerSentEventsError } from '../errors/serverSentEventsErrors';
export type { ReadServerSentEventsOptions } from '../agent/sse/readServerSentEvents';
export type { ToServerSentEventsOptions } from '../agent/sse/toServerSentEventsOptions';
