import { normalizeMessage } from '../internal/normalizeMessage';
import type { Message, ToolCall } from '../model/message';

/**
 * The content of the tool message that answers a call whose run stopped before its result was
 * recorded (a crash, a kill, a failed append): the model learns that the call did not complete,
 * and may call the tool again.
 *
 * @example
 * ```ts
 * INTERRUPTED_TOOL_RESULT; // 'Interrupted: this tool call did not complete (the run stopped before its result was recorded). Its effects, if any, are unknown.'
 * ```
 */
export const INTERRUPTED_TOOL_RESULT =
  'Interrupted: this tool call did not complete (the run stopped before its result was recorded). Its effects, if any, are unknown.';

/**
 * The tool message that answers an interrupted call: {@link INTERRUPTED_TOOL_RESULT}, with the
 * call's id and tool name, and `metadata.interrupted: true` so a UI can tell it from a real
 * result.
 *
 * @param call - the unanswered call (with its id)
 * @returns the answer
 * @example
 * ```ts
 * interruptedToolResult({ id: 'c1', name: 'calc', parameters: {} }).toolCallId; // 'c1'
 * ```
 */
export const interruptedToolResult = (call: ToolCall): Message =>
  normalizeMessage(
    {
      role: 'tool',
      content: INTERRUPTED_TOOL_RESULT,
      toolCallId: call.id ?? '',
      toolName: call.name,
      metadata: { interrupted: true },
    },
    'interruptedToolResult',
  );
