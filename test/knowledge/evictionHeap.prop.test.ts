// The eviction heap pops candidates in the keep order (rank, then last seen, then recorded, then
// place), as a sort of them would, whatever the order of the pushes and pops.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { EvictionHeap, type EvictionCandidate } from '../../src/knowledge/evictionHeap';

const candidate = fc.record({
  rank: fc.integer({ min: -5, max: 5 }),
  lastSeen: fc.integer({ min: 0, max: 3 }),
  recordedAt: fc.integer({ min: 0, max: 3 }),
  i: fc.integer({ min: 0, max: 50 }),
  id: fc.constant('x'),
});

const order = (a: EvictionCandidate, b: EvictionCandidate) =>
  a.rank - b.rank || a.lastSeen - b.lastSeen || a.recordedAt - b.recordedAt || a.i - b.i;

it('pops in the keep order, interleaved with pushes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(candidate, fc.constant('pop' as const)), { maxLength: 200 }),
      (steps) => {
        const heap = new EvictionHeap();
        const model: EvictionCandidate[] = [];
        for (const step of steps) {
          if (step === 'pop') {
            model.sort(order);
            const expected = model.shift();
            const got = heap.pop();
            expect(got === undefined ? undefined : order(got, expected as EvictionCandidate)).toBe(
              expected === undefined ? undefined : 0,
            );
          } else {
            heap.push(step);
            model.push(step);
          }
          expect(heap.size).toBe(model.length);
        }
      },
    ),
  );
});
