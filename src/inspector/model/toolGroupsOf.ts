import { requestsTools } from '../../internal/sequence';
import type { Message } from '../../model/message';

/**
 * The tool-call group of each message of a window: the position of the assistant tool-call
 * message for the call itself and for each result that answers one of its calls (matched by
 * id, before any other message), `null` for every other message. These are the groups the
 * strict policy keeps or removes whole.
 *
 * @param messages - the window
 * @param positions - their positions, parallel to `messages`
 * @returns the group of each message, parallel to `messages`
 * @example
 * ```ts
 * toolGroupsOf([user, call, result], [4, 5, 6]); // [null, 5, 5]
 * ```
 */
export const toolGroupsOf = (
  messages: readonly Message[],
  positions: readonly number[],
): (number | null)[] => {
  const groups: (number | null)[] = [];
  let head: number | null = null;
  let waiting = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      const id = message.toolCallId;
      const answers = head !== null && id !== undefined && waiting.delete(id);
      groups.push(answers ? head : null);
      return;
    }
    head = null;
    if (requestsTools(message)) {
      head = positions[i] as number;
      waiting = new Set((message.toolCalls ?? []).flatMap((call) => call.id ?? []));
    }
    groups.push(head);
  });
  return groups;
};
