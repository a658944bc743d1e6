import { hasAnthropicContent, isEmptyForOpenAI } from '../formats/messageContent';
import type { Message } from '../model/message';
import type { ViewTarget } from './viewTypes';

/**
 * Whether a window can be sent as it is, with nothing to leave out or answer: every tool result
 * answers a call of the assistant message right before it (system messages between them only
 * for `'anthropic'`, which lifts them out), every call is answered once before the next other
 * message, call ids are present and unique, and the target's empty-message and first-turn rules
 * hold. One pass; one set of the call ids seen. The view of such a window is the window itself
 * (plus the summary message), which is the common case of a provider-safe memory.
 *
 * @internal
 */
export const isSendable = (messages: readonly Message[], target: ViewTarget): boolean => {
  let used: Set<string> | undefined;
  let open: Set<string> | undefined;
  let seenTurn = false;
  let lastTurn = messages.length - 1;
  if (target === 'anthropic')
    while (lastTurn >= 0 && messages[lastTurn]?.role === 'system') lastTurn--;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    const { role } = message;
    if (role === 'tool') {
      const id = message.toolCallId;
      if (open === undefined || id === undefined || !open.delete(id)) return false;
      continue;
    }
    if (role === 'system' && target === 'anthropic' && open !== undefined) continue;
    if (open !== undefined && open.size > 0) return false;
    open = undefined;
    const calls = role === 'assistant' ? message.toolCalls : undefined;
    if (calls !== undefined && calls.length > 0) {
      used ??= new Set();
      open = new Set();
      for (const call of calls) {
        const id = call.id;
        if (id === undefined || id === '' || used.has(id)) return false;
        used.add(id);
        open.add(id);
      }
    }
    if (target === 'openai') {
      if (isEmptyForOpenAI(message)) return false;
    } else if (target === 'anthropic' && role !== 'system') {
      if (!seenTurn && role !== 'user') return false;
      seenTurn = true;
      if (i !== lastTurn || role !== 'assistant') {
        if (!hasAnthropicContent(message)) return false;
      }
    }
  }
  return open === undefined || open.size === 0;
};
