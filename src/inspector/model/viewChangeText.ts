import { escapeText } from '../../util/escapeText';
import type { Message } from '../../model/message';
import type { ViewChange } from '../../view/viewTypes';

/** What kind of message it is, in two words: `tool result`, `tool call`, `user message`. */
const messageKind = (message: Message): string => {
  if (message.role === 'tool') return 'tool result';
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) return 'tool call';
  return `${message.role} message`;
};

/**
 * One change of a model view in a line, as the CLI prints it and the page labels it:
 * `left out #12 tool result: tool-result-without-call`, or
 * `answered call c1 (calc): interrupted`, or `masked #7 tool result of call c2 (read_file): stale`
 * (`repeat of call c5` for a repeat), or, for an answer the view made and then left out with
 * its call, `left out the answer the view made for call c1: first-message-not-user`. Ids and tool names are escaped (`escapeText`), so the
 * line stays one line whatever the file holds.
 *
 * @param change - a `view/omitted`, `view/answered` or `view/masked` change
 * @returns the line
 * @example
 * ```ts
 * viewChangeText(modelView(state, { target: 'openai' }).changes[0]); // 'left out #12 tool result: tool-result-without-call'
 * ```
 */
export const viewChangeText = (change: ViewChange): string => {
  if (change.type === 'view/answered') {
    return `answered call ${escapeText(change.toolCallId, 40)} (${escapeText(change.toolName, 40)}): interrupted`;
  }
  if (change.type === 'view/masked') {
    const where = change.position === null ? 'a' : `#${change.position}`;
    const tool = change.toolName === null ? '' : ` (${escapeText(change.toolName, 40)})`;
    const why =
      change.sameAs === undefined
        ? change.reason
        : `${change.reason} of call ${escapeText(change.sameAs, 40)}`;
    return `masked ${where} tool result of call ${escapeText(change.toolCallId, 40)}${tool}: ${why}`;
  }
  if (change.type === 'view/recalled') {
    const where = change.positions.map((position) => `#${position}`).join(', ');
    return `recalled ${where} (${change.tokens} tokens) for ${JSON.stringify(escapeText(change.query, 60))}`;
  }
  if (change.position === null) {
    const { toolCallId } = change.message;
    const what =
      change.message.role === 'tool' && toolCallId !== undefined
        ? `the answer the view made for call ${escapeText(toolCallId, 40)}`
        : `a ${messageKind(change.message)} memory does not hold`;
    return `left out ${what}: ${change.reason}`;
  }
  return `left out #${change.position} ${messageKind(change.message)}: ${change.reason}`;
};
