/**
 * The recall benchmark's tables (markdown): evidence recall by question type and policy at each
 * budget, for each history size, with the tokens sent and the time per view.
 */
import { POLICIES, type PolicyName } from './policies';
import type { RecallOutcome } from './recallRun';

const TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'multi-session',
  'knowledge-update',
  'temporal-reasoning',
] as const;

const pct = (part: number, all: number): string =>
  all === 0 ? '–' : `${Math.round((100 * part) / all)}%`;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Share found among `outcomes`. */
const rate = (outcomes: readonly RecallOutcome[]): string =>
  pct(outcomes.filter((o) => o.found).length, outcomes.length);

/**
 * One table per history size and budget: a row per policy; columns overall (questions with
 * evidence), each type (its questions with evidence), abstention (states no answer; near misses
 * shown), mean tokens sent, median ms per view.
 */
export const recallTables = (outcomes: readonly RecallOutcome[]): string => {
  const sizes = [...new Set(outcomes.map((o) => o.sessions))];
  const budgets = [...new Set(outcomes.map((o) => o.budget))];
  const policies = POLICIES.filter((p) => outcomes.some((o) => o.policy === p));
  const lines: string[] = [];
  for (const sessions of sizes) {
    for (const budget of budgets) {
      const here = outcomes.filter((o) => o.sessions === sessions && o.budget === budget);
      const first = here.filter((o) => o.policy === policies[0]);
      const counts = TYPES.map((type) => first.filter((o) => o.type === type && !o.abstain).length);
      const abstaining = first.filter((o) => o.abstain).length;
      lines.push(
        `**${sessions} sessions, B = ${budget.toLocaleString('en')} tokens** (${first.length} questions)`,
        '',
        `| policy | overall | ${TYPES.map((t, i) => `${t} (${counts[i]})`).join(' | ')} | abstention (${abstaining}): no answer / near miss shown | tokens sent (mean) | ms per view (median) |`,
        `|---|---|${TYPES.map(() => '---').join('|')}|---|---|---|`,
      );
      for (const policy of policies as readonly PolicyName[]) {
        const mine = here.filter((o) => o.policy === policy);
        const answerable = mine.filter((o) => !o.abstain);
        const abstain = mine.filter((o) => o.abstain);
        const byType = TYPES.map((type) => rate(answerable.filter((o) => o.type === type)));
        const tokens = Math.round(
          mine.reduce((sum, o) => sum + o.tokens, 0) / Math.max(1, mine.length),
        );
        lines.push(
          `| ${policy} | ${rate(answerable)} | ${byType.join(' | ')} | ${rate(abstain)} / ${pct(abstain.filter((o) => o.nearMiss).length, abstain.length)} | ${tokens.toLocaleString('en')} | ${median(mine.map((o) => o.ms)).toFixed(2)} |`,
        );
      }
      lines.push('');
    }
  }
  return lines.join('\n');
};
