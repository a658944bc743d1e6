import type { Message } from '../model/message';

/**
 * The window a trim works on: the held messages followed by the incoming ones, read by index
 * without building the joined array (an add copies the window once, when it applies the plan).
 *
 * @internal
 */
export interface Sequence {
  readonly held: readonly Message[];
  readonly heldCounts: readonly number[];
  readonly incoming: readonly Message[];
  readonly incomingCounts: readonly number[];
  readonly length: number;
}

/**
 * Message `i` of the sequence.
 *
 * @internal
 */
export const messageAt = (sequence: Sequence, i: number): Message =>
  (i < sequence.held.length
    ? sequence.held[i]
    : sequence.incoming[i - sequence.held.length]) as Message;

/**
 * The token count of message `i` of the sequence.
 *
 * @internal
 */
export const countAt = (sequence: Sequence, i: number): number =>
  (i < sequence.heldCounts.length
    ? sequence.heldCounts[i]
    : sequence.incomingCounts[i - sequence.heldCounts.length]) as number;

/**
 * An assistant message that requests tool calls.
 *
 * @internal
 */
export const requestsTools = (message: Message): boolean =>
  message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0;

/**
 * A tool result, or an assistant message that requests tool calls: a message the reference never
 * lets start a window of two or more.
 *
 * @internal
 */
export const startsToolExchange = (message: Message): boolean =>
  message.role === 'tool' || requestsTools(message);
