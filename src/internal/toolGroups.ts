import type { Message } from '../model/message';
import { messageAt, requestsTools, type Sequence } from './sequence';

/** The assistant tool-call message being answered, and which of its calls are still open. */
interface OpenGroup {
  /** Indices of the head and of the results attached so far. */
  readonly members: number[];
  /** Call ids not answered yet (a call without an id can never be answered). */
  readonly waiting: (string | undefined)[];
}

const openGroup = (head: number, message: Message): OpenGroup => ({
  members: [head],
  waiting: (message.toolCalls ?? []).map((call) => call.id),
});

/** Every call has an id, and no two share one: otherwise the group can never be answered. */
const answerable = (message: Message): boolean => {
  const ids = new Set<string>();
  for (const call of message.toolCalls ?? []) {
    if (call.id === undefined || ids.has(call.id)) return false;
    ids.add(call.id);
  }
  return true;
};

/**
 * Where the strict scan of an add starts: the head of the newest tool-call group of the held
 * window when it ends with one (its results may still arrive), else the end of the held window.
 * The held window is already valid under the strict rules, so nothing before this index can be
 * affected by what arrives. Cost: the size of that group.
 *
 * @internal
 */
export const strictScanStart = (held: readonly Message[]): number => {
  let i = held.length - 1;
  while (i >= 0 && (held[i] as Message).role === 'tool') i--;
  return i >= 0 && requestsTools(held[i] as Message) ? i : held.length;
};

/**
 * The strict policy's pairing rules over `sequence[from..]`: a tool result joins the open group
 * when it answers one of its waiting calls by id, and is removed otherwise (its call is not in the
 * window, or was answered already); a group whose calls are not all answered when any other
 * message arrives is removed whole. The newest group may stay open (its results may still come),
 * unless a call has no id or two calls share one: such a group can never be answered, and is
 * removed at once.
 *
 * @returns the removed indices, ascending
 * @internal
 */
export const strictOrphans = (sequence: Sequence, from: number): number[] => {
  const removed: number[] = [];
  let open: OpenGroup | undefined;
  let unordered = false;
  const dropOpenIfUnanswered = (): void => {
    if (open !== undefined && open.waiting.length > 0) {
      if (removed.length > 0) unordered = true;
      removed.push(...open.members);
    }
    open = undefined;
  };
  for (let i = from; i < sequence.length; i++) {
    const message = messageAt(sequence, i);
    if (message.role === 'tool') {
      const slot =
        open === undefined || message.toolCallId === undefined
          ? -1
          : open.waiting.indexOf(message.toolCallId);
      if (slot === -1 || open === undefined) {
        removed.push(i);
      } else {
        open.waiting.splice(slot, 1);
        open.members.push(i);
      }
    } else {
      dropOpenIfUnanswered();
      if (!requestsTools(message)) continue;
      if (answerable(message)) {
        open = openGroup(i, message);
      } else {
        if (removed.length > 0 && (removed[removed.length - 1] as number) > i) unordered = true;
        removed.push(i);
      }
    }
  }
  return unordered ? removed.sort((a, b) => a - b) : removed;
};
