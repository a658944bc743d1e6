import { MAX_SUMMARY_CHARS } from '../../core/applySummary';
import { codePointLength } from '../../util/codePoints';

/**
 * What one step did to the summary, against the summary before it:
 * - `added`: `text` was appended (`applySummary`, `commitSummary` join a chunk with one space);
 *   `dropped` code points of the previous summary were cut from its front to keep the newest
 *   4,000 (0 unless the cap was reached);
 * - `replaced`: the new summary is not the previous one plus a chunk (`setSummary`);
 * - `cleared`: there is no summary any more.
 *
 * @example
 * ```ts
 * const diff: SummaryDiff = { kind: 'added', text: 'She likes cats.', dropped: 0 };
 * ```
 */
export type SummaryDiff =
  | { readonly kind: 'added'; readonly text: string; readonly dropped: number }
  | { readonly kind: 'replaced' }
  | { readonly kind: 'cleared' };

/**
 * The longest `k < pattern.length` such that `text` ends with `pattern.slice(0, k)`, in one pass
 * over each (Knuth–Morris–Pratt): how much of the previous summary a capped summary still starts
 * with.
 */
const overlap = (text: string, pattern: string): number => {
  const p = pattern.slice(0, -1);
  if (p === '') return 0;
  const fail = new Array<number>(p.length).fill(0);
  for (let i = 1, k = 0; i < p.length; i++) {
    while (k > 0 && p[i] !== p[k]) k = fail[k - 1] as number;
    if (p[i] === p[k]) k++;
    fail[i] = k;
  }
  let q = 0;
  for (let i = 0; i < text.length; i++) {
    if (q === p.length) q = fail[q - 1] as number;
    while (q > 0 && text[i] !== p[q]) q = fail[q - 1] as number;
    if (text[i] === p[q]) q++;
  }
  return q;
};

/**
 * The difference between the summary before a step and after it: the text the step appended (the
 * summarizer's new chunk, not the whole summary), or that it replaced or cleared the summary.
 * Linear in the summaries' length.
 *
 * @param previous - the summary before the step (`null`: none)
 * @param summary - the summary after it (`null`: cleared)
 * @returns the difference
 * @example
 * ```ts
 * summaryDiff('User is Alice.', 'User is Alice. She likes cats.'); // { kind: 'added', text: 'She likes cats.', dropped: 0 }
 * summaryDiff('User is Alice.', 'User is Bob.'); // { kind: 'replaced' }
 * ```
 */
export const summaryDiff = (previous: string | null, summary: string | null): SummaryDiff => {
  if (summary === null) return { kind: 'cleared' };
  if (previous === null || previous === '') return { kind: 'added', text: summary, dropped: 0 };
  const joined = `${previous} `;
  if (summary.length > joined.length && summary.startsWith(joined)) {
    return { kind: 'added', text: summary.slice(joined.length), dropped: 0 };
  }
  // A joined summary past the cap keeps its newest code points: it starts inside the previous one.
  if (codePointLength(summary) === MAX_SUMMARY_CHARS) {
    const kept = overlap(joined, summary);
    if (kept > 0) {
      return {
        kind: 'added',
        text: summary.slice(kept),
        dropped: codePointLength(joined.slice(0, joined.length - kept)),
      };
    }
  }
  return { kind: 'replaced' };
};
