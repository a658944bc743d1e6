import type { Message } from '../model/message';
import type { ViewTarget } from './viewTypes';

/**
 * Where a view's cached prompt prefixes end (`modelView`'s rule 7): the indices, ascending and
 * distinct, of at most three messages of `messages`:
 *
 * 1. the end of the lead: the last of the system messages the view begins with (the knowledge
 *    blocks, the summary, a system prompt pinned at the window's start), when there are some;
 * 2. the end of the stable part: the last message before the newest turn (the newest turn runs
 *    from the last user message on), when one lies between the lead and that turn;
 * 3. the newest turn's last message: the view's last message.
 *
 * For `'anthropic'`, which lifts every system message into `system`, only 1 may be a system
 * message: 2 and 3 are the last other message before the turn and at the end (a system message
 * there is sent with the system blocks, out of the conversation's order). The recall block (at
 * index `recalled`), which changes with each question, never carries a mark: the mark goes on
 * the message before it, so the cached prefix stays the same from question to question. The request's own
 * system prompt, sent before all of these, takes the fourth (see the Anthropic adapter).
 *
 * @internal
 */
export const cacheBreakpoints = (
  messages: readonly Message[],
  target: ViewTarget,
  recalled?: number,
): number[] => {
  const lifted = target === 'anthropic';
  let lead = 0;
  while (lead < messages.length && messages[lead]?.role === 'system') lead++;
  /** Whether the message at `k` may not carry a mark. */
  const unmarked = (k: number) => k === recalled || (lifted && messages[k]?.role === 'system');
  let turn = messages.length;
  while (turn > lead && messages[turn - 1]?.role !== 'user') turn--;
  // No user message after the lead: the whole rest is the newest turn.
  if (turn > lead) turn--;
  else turn = lead;
  /** The last index before `end` and at or after the lead that may carry a mark. */
  const lastBefore = (end: number): number => {
    let k = end - 1;
    while (k >= lead && unmarked(k)) k--;
    return k >= lead ? k : -1;
  };
  const marks: number[] = [];
  // The recall block changes with the question: the lead's mark goes before it.
  const leadEnd = lead - 1 === recalled ? lead - 2 : lead - 1;
  if (leadEnd >= 0) marks.push(leadEnd);
  const stable = lastBefore(turn);
  if (stable >= 0) marks.push(stable);
  const newest = lastBefore(messages.length);
  if (newest >= 0 && newest !== stable) marks.push(newest);
  return marks;
};
