import type { Message } from '../model/message';
import { filterDraft } from './providerRules';
import type { ViewDraft } from './repairToolPairs';

/**
 * The messages of a draft that a budget leaves out (rules 2 and 3 of {@link fitBudget}), given
 * each message's tokens and the draft's total: whole groups, oldest first, until the total fits,
 * keeping pinned messages and the newest group.
 *
 * @param counts - each message's tokens, parallel to `draft.messages`
 * @param total - the draft's tokens (the fixed part and every count)
 * @returns the indices left out (in `draft.messages`) and the tokens that remain
 * @internal
 */
export const budgetDrops = (
  draft: ViewDraft,
  counts: readonly number[],
  total: number,
  budget: number,
  pinned: (message: Message) => boolean,
): { dropped: Set<number>; tokens: number } => {
  const { messages, groupStarts } = draft;
  const dropped = new Set<number>();
  let tokens = total;
  if (tokens <= budget) return { dropped, tokens };
  const lastStart = messages.length === 0 ? 0 : (groupStarts[messages.length - 1] as number);
  // Walk groups from the oldest: a group is [start, next start).
  let k = 0;
  while (k < lastStart && tokens > budget) {
    const start = groupStarts[k] as number;
    let end = k;
    while (end < messages.length && groupStarts[end] === start) end++;
    for (let m = k; m < end; m++) {
      if (pinned(messages[m] as Message)) continue;
      dropped.add(m);
      tokens -= counts[m] as number;
    }
    k = end;
  }
  return { dropped, tokens };
};

/**
 * Leaves out the oldest groups of the draft until its tokens fit `budget` (rules in order):
 *
 * 1. The tokens of the view are `fixed` (the summary message) plus each message's count
 *    (`tokensAt`).
 * 2. Groups are left out whole, oldest first; a pinned system message in a group left out stays
 *    (pinned messages are never left out).
 * 3. The newest group is never left out: a view whose newest group alone exceeds the budget is
 *    sent over budget (`overBudget`), like the strict policy's newest group.
 *
 * @returns the draft that fits (or the smallest one allowed) and its tokens
 * @internal
 */
export const fitBudget = (
  draft: ViewDraft,
  budget: number,
  fixed: number,
  tokensAt: (k: number) => number,
  pinned: (message: Message) => boolean,
): { draft: ViewDraft; tokens: number } => {
  const counts = draft.messages.map((_, k) => tokensAt(k));
  let total = fixed;
  for (const count of counts) total += count;
  const { dropped, tokens } = budgetDrops(draft, counts, total, budget, pinned);
  const fitted = dropped.size === 0 ? draft : filterDraft(draft, (m) => !dropped.has(m), 'budget');
  return { draft: fitted, tokens };
};
