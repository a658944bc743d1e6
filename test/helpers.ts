import type { Message, ToolCall } from 'conversation-memory';

/** A tool call with an id, for building tool turns in tests. */
export const call = (
  id: string,
  name = 'calc',
  parameters: ToolCall['parameters'] = {},
): ToolCall => ({
  id,
  name,
  parameters,
});

/** Shorthand message literals, written as users write them. */
export const user = (content: string): Message => ({ role: 'user', content });
export const assistant = (content: string | null, ...toolCalls: ToolCall[]): Message =>
  toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
export const tool = (content: string, toolCallId = 'c1'): Message => ({
  role: 'tool',
  content,
  toolCallId,
  toolName: 'calc',
});
export const system = (content: string): Message => ({ role: 'system', content });

/** The contents of a window, for compact assertions. */
export const contents = (messages: readonly Message[]): (string | null)[] =>
  messages.map((m) => m.content);

/** What a promise rejects with; fails the test if it resolves. */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};
