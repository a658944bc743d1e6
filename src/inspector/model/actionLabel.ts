import { escapeText } from '../../util/escapeText';
import type { MemoryAction } from '../../model/actions';
import type { MemoryOptions } from '../../model/config';
import type { Message } from '../../model/message';

const TEXT_WIDTH = 40;

const text = (value: string, width = TEXT_WIDTH): string => `"${escapeText(value, width)}"`;

/**
 * One message in a few words: `user "Hi"`, `assistant → get_weather(call_1)`,
 * `tool(call_1) "18°C"`. Control characters are escaped, so it stays on one line.
 *
 * @param message - the message
 * @param width - the most characters of its text shown (default 40)
 * @returns the description
 * @example
 * ```ts
 * messageLabel(userMessage('Hi')); // 'user "Hi"'
 * ```
 */
export const messageLabel = (message: Message, width = TEXT_WIDTH): string => {
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    const calls = message.toolCalls.map(
      (call) => `${escapeText(call.name, 30)}(${escapeText(call.id ?? '?', 30)})`,
    );
    return `assistant → ${calls.join(', ')}`;
  }
  const role =
    message.role === 'tool' ? `tool(${escapeText(message.toolCallId ?? '?', 30)})` : message.role;
  const content = message.content ?? '';
  if (content !== '') return `${role} ${text(content, width)}`;
  return message.imageBase64 !== undefined || message.contentParts !== undefined
    ? `${role} [parts]`
    : role;
};

/** The fields of a `reconfigured` action: `maxMessages=5, tokenizer="heuristic"`. */
const configLabel = (fields: MemoryOptions): string => {
  const parts = Object.entries(fields).map(([key, value]) =>
    typeof value === 'string'
      ? `${escapeText(key, 20)}=${text(value, 30)}`
      : `${escapeText(key, 20)}=${String(value)}`,
  );
  return parts.length === 0 ? '(no change)' : parts.join(', ');
};

/**
 * An action in a few words, for a timeline row: `add user "Hi"`, `add 3 messages`,
 * `summary applied "…"`, `hold 2 for summary`, `commit summary through #5`, `clear`,
 * `reconfigure maxMessages=5`.
 *
 * @param action - the action, or `null` for step 0
 * @returns the description
 * @example
 * ```ts
 * actionLabel(memoryActions.cleared()); // 'clear'
 * ```
 */
export const actionLabel = (action: MemoryAction | null): string => {
  if (action === null) return 'start';
  switch (action.type) {
    case 'memory/messageAdded':
      return `add ${messageLabel(action.payload)}`;
    case 'memory/messagesAdded':
      return action.payload.length === 1
        ? `add ${messageLabel(action.payload[0] as Message)}`
        : `add ${action.payload.length} messages`;
    case 'memory/limitsEnforced':
      return 'enforce limits';
    case 'memory/toolPairBoundaryFixed':
      return 'fix tool-pair boundary';
    case 'memory/summaryApplied':
      return `summary applied ${text(action.payload)}`;
    case 'memory/summarySet':
      return action.payload === null ? 'summary cleared' : `summary set ${text(action.payload)}`;
    case 'memory/cleared':
      return 'clear';
    case 'memory/trimHeld':
      return `hold ${action.payload.removed.length} for summary`;
    case 'memory/summaryCommitted':
      return `commit summary through #${action.payload.through}`;
    case 'memory/reconfigured':
      return `reconfigure ${configLabel(action.payload)}`;
    case 'knowledge/factsExtracted': {
      const { source, from, to } = action.payload;
      const found = (action.payload.entities?.length ?? 0) + (action.payload.triples?.length ?? 0);
      return `extract ${source} #${from}–#${to}: ${found} fact${found === 1 ? '' : 's'}`;
    }
    case 'knowledge/remembered':
      return `remember ${text(action.payload.content)}`;
    case 'knowledge/forgotten':
      return 'id' in action.payload
        ? `forget ${escapeText(action.payload.id, 40)}`
        : `forget ${text(action.payload.content)}`;
    case 'knowledge/cleared':
      return 'clear knowledge';
  }
};
