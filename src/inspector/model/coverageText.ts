import type { SummaryCoverage } from '../../model/summaryCoverage';

/** At most this many runs of positions are listed; the rest are counted. */
const MAX_RUNS = 6;

/** Positions (ascending) as runs: `#0–#1, #3`, the first {@link MAX_RUNS} of them. */
const runsText = (positions: readonly number[]): string => {
  const runs: string[] = [];
  let total = 0;
  for (let i = 0; i < positions.length;) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === (positions[j] as number) + 1) j++;
    total++;
    if (runs.length < MAX_RUNS) {
      runs.push(i === j ? `#${positions[i]}` : `#${positions[i]}–#${positions[j]}`);
    }
    i = j + 1;
  }
  return total > MAX_RUNS ? `${runs.join(', ')}, …` : runs.join(', ');
};

const messages = (count: number): string => `${count} message${count === 1 ? '' : 's'}`;

/**
 * What one committed summary chunk covers, in words. A record is the first and last position it
 * summarized and how many messages (`SummaryCoverage`): when `count` is less than the span, the
 * positions between were not summarized: pinned system messages that never left the window, or
 * messages trimmed without being held. The positions still in the window (`windowPositions`) are
 * named; when they explain every gap, the covered positions are listed exactly.
 *
 * @param coverage - the record
 * @param windowPositions - the positions in the window at the step shown (`[]` when unknown)
 * @returns e.g. `covers #0–#3 (4 messages)`, `covers #0–#1, #3 (3 messages; #2 is in the window)`,
 *   `covers 3 messages between #0 and #5`
 * @example
 * ```ts
 * coverageText({ from: 0, to: 3, count: 3 }, [2, 4, 5]); // 'covers #0–#1, #3 (3 messages; #2 is in the window)'
 * ```
 */
export const coverageText = (
  coverage: SummaryCoverage,
  windowPositions: readonly number[],
): string => {
  const { from, to, count } = coverage;
  const span = to - from + 1;
  if (count >= span) {
    return `covers ${from === to ? `#${from}` : `#${from}–#${to}`} (${messages(count)})`;
  }
  const inWindow = windowPositions.filter((p) => p >= from && p <= to).sort((a, b) => a - b);
  const kept =
    inWindow.length === 0
      ? ''
      : `${runsText(inWindow)} ${inWindow.length === 1 ? 'is' : 'are'} in the window`;
  if (count + inWindow.length === span) {
    const held = new Set(inWindow);
    const covered: number[] = [];
    for (let p = from; p <= to; p++) if (!held.has(p)) covered.push(p);
    return `covers ${runsText(covered)} (${messages(count)}; ${kept})`;
  }
  return `covers ${messages(count)} between #${from} and #${to}${kept === '' ? '' : ` (${kept})`}`;
};
