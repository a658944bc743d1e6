import { InvalidMessageError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { keySegment } from '../util/escapeText';
import { keyHint, type KeyHints } from '../util/keyHint';
import { unreadable } from '../internal/unreadable';
import { normalizeMessage } from '../internal/normalizeMessage';
import type { Message } from '../model/message';
import type { ToolCallInput } from '../model/messageInput';

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
 * @param toolCalls - tool calls the assistant requests (`parameters` may be any object type,
 *   such as an interface; it is checked at run time to be a JSON object)
 * @returns a frozen, canonical message
 * @example
 * ```ts
 * assistantMessage('', [{ id: 'c1', name: 'calc', parameters: { expr: '2+2' } }]);
 * ```
 */
export const assistantMessage = (
  content: string | null,
  toolCalls?: readonly ToolCallInput[],
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
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly toolResult?: string | undefined;
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
  let fields: { -readonly [K in keyof ToolResultOrigin]: unknown };
  try {
    fields = readOrigin(origin);
  } catch (error) {
    throw unreadable(error, InvalidMessageError, 'toolMessage', 'origin');
  }
  return normalizeMessage({ role: 'tool', content, ...fields }, 'toolMessage');
};

/** The origin field a foreign key probably meant. */
const ORIGIN_HINTS: KeyHints = {
  tool_call_id: 'toolCallId',
  id: 'toolCallId',
  tool_name: 'toolName',
  name: 'toolName',
  tool_result: 'toolResult',
};

/** The origin's own fields, each read once; an unknown key is an error (a typo would lose data). */
const readOrigin = (origin: object): { -readonly [K in keyof ToolResultOrigin]: unknown } => {
  const fields: { -readonly [K in keyof ToolResultOrigin]: unknown } = {};
  for (const key of Object.keys(origin)) {
    const value = (origin as Record<string, unknown>)[key];
    if (key === 'toolCallId' || key === 'toolName' || key === 'toolResult') {
      fields[key] = value;
    } else if (value !== undefined) {
      throw new InvalidMessageError(
        'toolMessage',
        `origin${keySegment(key)} is not a field of this object${keyHint(key, ORIGIN_HINTS)}; expected toolCallId, toolName, toolResult`,
      );
    }
  }
  return fields;
};
