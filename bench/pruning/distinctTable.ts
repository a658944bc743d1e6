/**
 * The pruning benchmark's table: one row per configuration and budget, in Markdown, and the
 * issue's goals checked on the reports.
 */
import { quantile } from '../knowledge/recallTable';
import type { DistinctReport } from './distinctScript';

const mean = (sum: number, count: number): string =>
  count === 0 ? 'n/a' : (sum / count).toFixed(1);

const ratio = (value: number, base: number): string =>
  base === 0 ? 'n/a' : `${(value / base).toFixed(2)}×`;

/** The report of `oldest` (no masking) at the same budget: the baseline of every ratio. */
const oldestOf = (
  reports: readonly DistinctReport[],
  report: DistinctReport,
): DistinctReport | undefined =>
  reports.find(
    (other) =>
      other.budget === report.budget && other.config.prune === 'oldest' && !other.config.mask,
  );

/**
 * The reports as a Markdown table: per turn's end (means), the distinct facts the view sends
 * verbatim and their ratio to `oldest` at the same budget, the keys whose latest value it sends,
 * the upper bound on distinct facts for any view of the budget (`factBound`), keys with old
 * values only, latest values lost against `oldest` (in memory: against the same
 * masking with `oldest`; in the view: against `oldest` without masking, summed), messages removed
 * as redundant per conversation, and the tokens sent (median, p95, max).
 *
 * @example
 * ```ts
 * console.log(distinctTable(measureDistinctFacts({ lib, conversations: 20, budget: 2000 })));
 * ```
 */
export const distinctTable = (reports: readonly DistinctReport[]): string => {
  const rows = reports.map((r) => {
    const base = oldestOf(reports, r);
    return [
      String(r.budget),
      r.config.name,
      String(r.memoryTokens),
      `${mean(r.stated, r.turnEnds)} (${mean(r.statedFacts, r.turnEnds)})`,
      `${mean(r.distinct, r.turnEnds)} (${ratio(r.distinct, base?.distinct ?? 0)})`,
      `${mean(r.latest, r.turnEnds)} (${ratio(r.latest, base?.latest ?? 0)})`,
      `${mean(r.bound, r.turnEnds)} (${ratio(r.bound, base?.distinct ?? 0)})`,
      String(r.staleOnly),
      r.config.prune === 'oldest' ? '—' : String(r.lostInMemory),
      r.config.prune === 'oldest' && !r.config.mask ? '—' : String(r.lostInView),
      mean(r.removedRedundant, r.conversations),
      String(quantile(r.tokensSent, 0.5)),
      String(quantile(r.tokensSent, 0.95)),
      String(quantile(r.tokensSent, 1)),
    ].join(' | ');
  });
  return [
    '| budget sent | config | memory keeps (tokens) | keys (facts) stated so far | distinct facts in view (× oldest) | latest values in view (× oldest) | upper bound, any view (× oldest) | stale-only keys (sum) | latest lost vs oldest, memory (sum) | latest lost vs oldest, view (sum) | removed as redundant per conversation | tokens sent, median | p95 | max |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
};

/**
 * The goals on the reports, one line each with the measured value: at every budget,
 * `redundant + masking` sends at least 1.5× the distinct facts of `oldest`, and `redundant` loses
 * no latest value that `oldest` keeps (with and without masking).
 *
 * @example
 * ```ts
 * goalLines(reports); // ['- budget 2000: redundant + masking / oldest = 0.62× (goal ≥ 1.5×): not met', …]
 * ```
 */
export const goalLines = (reports: readonly DistinctReport[]): string[] =>
  reports.flatMap((r) => {
    const base = oldestOf(reports, r);
    if (r.config.prune !== 'redundant' || base === undefined) return [];
    const lines = [
      `- budget ${r.budget}, ${r.config.name}: latest values lost against ${r.config.mask ? 'oldest + masking' : 'oldest'} (memory) = ${r.lostInMemory} (goal 0): ${r.lostInMemory === 0 ? 'met' : 'not met'}`,
    ];
    if (r.config.mask) {
      const times = base.distinct === 0 ? 0 : r.distinct / base.distinct;
      const reachable = base.distinct > 0 && r.bound / base.distinct >= 1.5;
      lines.unshift(
        `- budget ${r.budget}, ${r.config.name}: distinct facts ${ratio(r.distinct, base.distinct)} of oldest (goal ≥ 1.5×; no view can exceed ${ratio(r.bound, base.distinct)}${reachable ? '' : ', so no policy meets it here'}): ${times >= 1.5 ? 'met' : 'not met'}`,
      );
    }
    return lines;
  });
