// The persistent list behind event logs (src/log/logVector.ts): however it is built (added to one
// item at a time, made from an array in one pass, cut with take), it holds the same items in the
// same shape, never changes once made, and survives JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_VECTOR,
  vectorAt,
  vectorForEach,
  vectorFromArray,
  vectorOf,
  vectorPush,
  vectorTake,
  vectorToArray,
  type LogVector,
} from '../../src/log/logVector';

const API = 'test';

const pushed = (items: readonly number[]): LogVector<number> =>
  items.reduce<LogVector<number>>((list, item) => vectorPush(list, item, API), EMPTY_VECTOR);

/** The trie's first leaf (items 0..31). */
const firstLeaf = (list: LogVector<number>): unknown => {
  let node: unknown = list.root;
  for (let shift = list.shift; shift > 0; shift -= 5) node = (node as unknown[])[0];
  return node;
};

const range = (size: number): number[] => Array.from({ length: size }, (_, i) => i);

/** Lengths around every boundary the trie has: leaves (32), a full root (1,024), a level up. */
const sizeArb = fc.oneof(
  fc.integer({ min: 0, max: 70 }),
  fc.constantFrom(31, 32, 33, 64, 65, 1_023, 1_024, 1_025, 1_056, 1_057, 1_088, 2_080),
  fc.integer({ min: 0, max: 2_200 }),
);

describe('logVector', () => {
  it('adding one by one and making from an array give the same list, item by item', () => {
    fc.assert(
      fc.property(sizeArb, (size) => {
        const items = range(size);
        const list = pushed(items);
        expect(list).toEqual(vectorFromArray(items));
        expect(list.size).toBe(size);
        expect(vectorToArray(list, API)).toEqual(items);
        for (let i = 0; i < size; i += 7) expect(vectorAt(list, i, API)).toBe(i);
      }),
      { numRuns: 60 },
    );
  });

  it('take(n) is the list of the first n items, sharing the leaves before n', () => {
    fc.assert(
      fc.property(sizeArb, fc.nat(), (size, pick) => {
        const items = range(size);
        const list = vectorFromArray(items);
        const n = pick % (size + 1);
        const taken = vectorTake(list, n, API);
        expect(taken).toEqual(vectorFromArray(items.slice(0, n)));
        expect(vectorToArray(taken, API)).toEqual(items.slice(0, n));
        if (n > 32) expect(firstLeaf(taken)).toBe(firstLeaf(list));
        // Adding to the cut list gives what adding to a list of its items gives.
        expect(vectorPush(taken, -1, API)).toEqual(vectorFromArray([...items.slice(0, n), -1]));
      }),
      { numRuns: 80 },
    );
  });

  it('forEach visits exactly the items of a range, in order', () => {
    fc.assert(
      fc.property(sizeArb, fc.nat(), fc.nat(), (size, a, b) => {
        const list = vectorFromArray(range(size));
        const from = a % (size + 1);
        const to = from + (b % (size - from + 1));
        const seen: number[] = [];
        vectorForEach(list, from, to, (item, i) => seen.push(item === i ? item : Number.NaN), API);
        expect(seen).toEqual(range(size).slice(from, to));
      }),
      { numRuns: 80 },
    );
  });

  it('a list never changes: adding to an older list leaves the newer one as it was', () => {
    const base = pushed(range(100));
    const newer = vectorPush(base, 100, API);
    const branch = vectorPush(base, -100, API);
    expect(vectorAt(newer, 100, API)).toBe(100);
    expect(vectorAt(branch, 100, API)).toBe(-100);
    expect(base.size).toBe(100);
    for (const list of [base, newer, branch]) {
      expect(Object.isFrozen(list)).toBe(true);
      expect(Object.isFrozen(list.tail)).toBe(true);
      expect(Object.isFrozen(list.root)).toBe(true);
      expect(list.root.every((leaf) => Object.isFrozen(leaf))).toBe(true);
    }
  });

  it("survives JSON, and vectorOf accepts the copy but refuses a list whose fields don't fit", () => {
    const list = vectorFromArray(range(1_100));
    const copy = vectorOf(JSON.parse(JSON.stringify(list)));
    expect(typeof copy).toBe('object');
    expect(vectorToArray(copy as LogVector<number>, API)).toEqual(range(1_100));
    expect(vectorOf({ ...list, size: 1_101 })).toBe('has nodes that do not hold its size');
    expect(vectorOf({ ...list, shift: 7 })).toBe('has no level');
    expect(vectorOf({ ...list, root: {} })).toBe('has no nodes');
    expect(vectorOf(null)).toBe('is not a list');
  });
});
