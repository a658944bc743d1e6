/**
 * What one committed summary chunk covers: the positions of the first and last message it
 * summarized and how many messages it summarized (pinned system messages between them were not
 * trimmed, so `count` can be less than `to - from + 1`).
 *
 * @example
 * ```ts
 * const coverage: SummaryCoverage = { from: 0, to: 3, count: 4 };
 * ```
 */
export interface SummaryCoverage {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}
