import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  holdsPosition,
  positionAt,
  positionsOf,
  runsAfterPrefixCut,
  runsOf,
} from '../../src/internal/positions';

/** Rising positions with gaps, as a window holds them. */
const positionsArb = fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 30 }).chain((steps) =>
  fc.nat({ max: 50 }).map((start) => {
    const positions: number[] = [];
    let next = start;
    for (const step of steps) {
      positions.push(next);
      next += step;
    }
    return positions;
  }),
);

describe('position runs (the storage of positions in a state)', () => {
  it('runsOf and positionsOf are inverses; positionAt and holdsPosition agree with the list', () => {
    fc.assert(
      fc.property(positionsArb, (positions) => {
        const runs = runsOf(positions);
        expect(positionsOf(runs, positions.length)).toEqual(positions);
        positions.forEach((position, i) => expect(positionAt(runs, i)).toBe(position));
        const top = (positions.at(-1) ?? 0) + 2;
        for (let p = 0; p <= top; p++) {
          expect(holdsPosition(runs, positions.length, p)).toBe(positions.includes(p));
        }
        // Consecutive positions make one run: a default-policy window is always one record.
        for (let k = 1; k < runs.length; k++) {
          const previous = positions[(runs[k]?.index ?? 0) - 1] as number;
          expect(runs[k]?.position).not.toBe(previous + 1);
        }
      }),
    );
  });

  it('runsAfterPrefixCut equals cutting and appending the list', () => {
    fc.assert(
      fc.property(
        positionsArb,
        fc.nat({ max: 35 }),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        (positions, rawCut, incomingCount, skip) => {
          const start = (positions.at(-1) ?? -1) + 1 + skip;
          const incoming = Array.from({ length: incomingCount }, (_, i) => start + i);
          const cut = Math.min(rawCut, positions.length + incomingCount);
          const expected = positions.concat(incoming).slice(cut);
          const runs = runsAfterPrefixCut(
            runsOf(positions),
            positions.length,
            cut,
            start,
            incomingCount,
          );
          expect(positionsOf(runs, expected.length)).toEqual(expected);
          expect(runs).toEqual(runsOf(expected));
        },
      ),
    );
  });

  it('gives back the same runs when nothing is cut and the new positions continue the last run', () => {
    const runs = runsOf([4, 5, 9]);
    expect(runsAfterPrefixCut(runs, 3, 0, 10, 2)).toBe(runs);
  });
});
