/**
 * The knowledge benchmark's table: one row per graph, in Markdown.
 */
import type { RecallReport } from './recallScript';

/**
 * The value at quantile `q` (0 to 1) of `values`, by nearest rank (0 for no values).
 *
 * @example
 * ```ts
 * quantile([5, 1, 3], 0.5); // 3
 * ```
 */
export const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] as number;
};

const percent = (part: number, whole: number): string =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;

/**
 * The reports as a Markdown table: recall at the end, stale, duplicate and never-stated facts
 * injected over all turns, facts and duplicates stored at the end (per conversation), and tokens
 * injected per turn (median, p95, max).
 *
 * @example
 * ```ts
 * console.log(recallTable(measureKnowledgeRecall({ conversations: 20, countTokens })));
 * ```
 */
export const recallTable = (reports: readonly RecallReport[]): string => {
  const rows = reports.map((r) =>
    [
      r.system,
      `${percent(r.recalled, r.currentFacts)} (${r.recalled}/${r.currentFacts})`,
      `${r.staleInjected} (${percent(r.turnsWithStale, r.turns)} of turns)`,
      String(r.staleAtEnd),
      String(r.duplicatesInjected),
      String(r.unknownInjected),
      (r.storedFacts / r.conversations).toFixed(1),
      `${r.duplicatesStored} (${(r.duplicatesStored / r.conversations).toFixed(1)})`,
      String(quantile(r.tokensPerTurn, 0.5)),
      String(quantile(r.tokensPerTurn, 0.95)),
      String(quantile(r.tokensPerTurn, 1)),
    ].join(' | '),
  );
  return [
    '| system | recall of current facts (end) | stale facts injected (turns) | stale at end | duplicates injected | never-stated injected | facts stored per conversation | duplicates stored (per conversation) | tokens per turn, median | p95 | max |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
};
