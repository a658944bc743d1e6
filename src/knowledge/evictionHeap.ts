/**
 * A candidate for eviction: a fact in force, by its time-free keep rank (keepScore.ts), then the
 * time it was last seen, when it was recorded, and its place in its list. Entries go stale when
 * the fact changes (a mention raises its rank) or leaves (retired, moved): a stale one is skipped
 * when it comes out (`isCurrent` in evict.ts), and the fact's new version has an entry of its own.
 *
 * @internal
 */
export interface EvictionCandidate {
  readonly rank: number;
  readonly lastSeen: number;
  readonly recordedAt: number;
  readonly i: number;
  readonly id: string;
}

const before = (a: EvictionCandidate, b: EvictionCandidate): boolean =>
  a.rank !== b.rank
    ? a.rank < b.rank
    : a.lastSeen !== b.lastSeen
      ? a.lastSeen < b.lastSeen
      : a.recordedAt !== b.recordedAt
        ? a.recordedAt < b.recordedAt
        : a.i < b.i;

/**
 * A binary min-heap of eviction candidates (lowest keep rank on top), so that evicting one fact
 * costs O(log n) instead of a scan and a sort of every fact in force.
 *
 * @internal
 */
export class EvictionHeap {
  readonly #items: EvictionCandidate[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(item: EvictionCandidate): void {
    const items = this.#items;
    items.push(item);
    let k = items.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!before(items[k] as EvictionCandidate, items[parent] as EvictionCandidate)) break;
      [items[k], items[parent]] = [
        items[parent] as EvictionCandidate,
        items[k] as EvictionCandidate,
      ];
      k = parent;
    }
  }

  pop(): EvictionCandidate | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let k = 0;
    for (;;) {
      const left = 2 * k + 1;
      const right = left + 1;
      let least = k;
      if (
        left < items.length &&
        before(items[left] as EvictionCandidate, items[least] as EvictionCandidate)
      )
        least = left;
      if (
        right < items.length &&
        before(items[right] as EvictionCandidate, items[least] as EvictionCandidate)
      )
        least = right;
      if (least === k) return top;
      [items[k], items[least]] = [items[least] as EvictionCandidate, items[k] as EvictionCandidate];
      k = least;
    }
  }

  clear(): void {
    this.#items.length = 0;
  }
}
