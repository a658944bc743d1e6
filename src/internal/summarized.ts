import type { SummaryCoverage } from '../model/summaryCoverage';

/**
 * Whether a committed summary covered `position` for certain: a coverage record with no gap
 * (`count === to − from + 1`) spans it. A record with gaps (pinned messages, or positions held in
 * another order, lay between the ones it covered) cannot say which positions inside it were
 * covered, so it covers none here: a position is then summarized again rather than lost.
 *
 * @internal
 */
export const isSummarized = (coverage: readonly SummaryCoverage[], position: number): boolean =>
  coverage.some(
    (record) =>
      record.from <= position &&
      position <= record.to &&
      record.count === record.to - record.from + 1,
  );
