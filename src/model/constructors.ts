import { InvalidMessageError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { normalizeMessage } from '../internal/normalizeMessage';
import type { Message, ToolCall } from './message';

/**
 * A user message.
 *
 * @param content - the text
 * @returns a frozen, canonical message
 * @example
 * ```ts
 * userMessage('What is 2+2?'); // { role: 'user', content: 'What is 2+2?' }
 * ```
 */
export const userMessage = (content: string): Message =>
  normalizeMessage({ role: 'user', content }, 'userMessage');

/**
 * A system message.
 *
 * @param content - the instruction
 * @returns a frozen, canonical message
 * @example
 * ```ts
 * systemMessage('You are terse.'); // { role: 'system', content: 'You are terse.' }
 * ```
 */
export const systemMessage = (content: string): Message =>
  normalizeMessage({ role: 'system', content }, 'systemMessage');

/**
 * An assistant message, optionally requesting tool calls. `content` may be `null` (a
 * tool-call-only reply, as some providers return it).
 *
 * @param content - the reply text, or `null`
 * @param toolCalls - tool calls the assistant requests
 * @returns a frozen, canonical message
 * @example
 * ```ts
 * assistantMessage('', [{ id: 'c1', name: 'calc', parameters: { expr: '2+2' } }]);
 * ```
 */
export const assistantMessage = (
  content: string | null,
  toolCalls?: readonly ToolCall[],
): Message => normalizeMessage({ role: 'assistant', content, toolCalls }, 'assistantMessage');

/**
 * Where a tool result comes from: the call it answers and the tool that produced it.
 *
 * @example
 * ```ts
 * const origin: ToolResultOrigin = { toolCallId: 'c1', toolName: 'calc' };
 * ```
 */
export interface ToolResultOrigin {
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly toolResult?: string;
}

/**
 * A tool result message.
 *
 * @param content - the result as text
 * @param origin - `toolCallId` (the call it answers), `toolName`, `toolResult`
 * @returns a frozen, canonical message
 * @example
 * ```ts
 * toolMessage('4', { toolCallId: 'c1', toolName: 'calc' });
 * ```
 */
export const toolMessage = (content: string, origin: ToolResultOrigin = {}): Message => {
  if (typeof origin !== 'object' || origin === null) {
    throw new InvalidMessageError(
      'toolMessage',
      `origin must be an object such as { toolCallId, toolName }, received ${describeValue(origin)}`,
    );
  }
  return normalizeMessage(
    {
      role: 'tool',
      content,
      toolCallId: origin.toolCallId,
      toolName: origin.toolName,
      toolResult: origin.toolResult,
    },
    'toolMessage',
  );
};
