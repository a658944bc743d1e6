import { expect } from 'vitest';
import type { MemoryState, Message } from 'conversation-memory';

/** A tool result, or an assistant message with a non-empty `toolCalls` list. */
export const startsToolExchange = (message: Message): boolean =>
  message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0);

/**
 * Law 4, boundary. A window of two or more messages never starts with a tool result or an
 * assistant tool-call message (a single message may be either, as in the reference).
 */
export const checkBoundary = (state: MemoryState): void => {
  const first = state.messages[0];
  if (first !== undefined && state.messages.length > 1) {
    expect(startsToolExchange(first), `window starts with ${JSON.stringify(first)}`).toBe(false);
  }
};
