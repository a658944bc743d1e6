import type { Message, ToolCall } from '../../model/message';

/**
 * The calls left unanswered at the end of a window: the last assistant tool-call message, when
 * only tool results follow it, and its calls that none of them answers. That is what a run
 * leaves behind when its process stops inside a tool (a crash, a kill, a failed append).
 * A call without an id is not returned (no result could answer it; the model view leaves such
 * a message out).
 *
 * @internal
 */
export const interruptedCalls = (messages: readonly Message[]): ToolCall[] => {
  let i = messages.length - 1;
  const answered = new Set<string>();
  while (i >= 0 && messages[i]?.role === 'tool') {
    const id = messages[i]?.toolCallId;
    if (id !== undefined) answered.add(id);
    i--;
  }
  const last = messages[i];
  if (last?.role !== 'assistant' || last.toolCalls === undefined) return [];
  return last.toolCalls.filter(
    (call) => call.id !== undefined && call.id !== '' && !answered.has(call.id),
  );
};
