/**
 * A binary min-heap of numbers (positions), in a plain array.
 *
 * @internal
 */
export const heapPush = (heap: number[], value: number): void => {
  let i = heap.length;
  heap.push(value);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if ((heap[parent] as number) <= value) break;
    heap[i] = heap[parent] as number;
    i = parent;
  }
  heap[i] = value;
};

/**
 * Removes and returns the smallest value (`undefined` when empty).
 *
 * @internal
 */
export const heapPop = (heap: number[]): number | undefined => {
  if (heap.length === 0) return undefined;
  const top = heap[0] as number;
  const last = heap.pop() as number;
  if (heap.length === 0) return top;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child =
      right < heap.length && (heap[right] as number) < (heap[left] as number) ? right : left;
    if ((heap[child] as number) >= last) break;
    heap[i] = heap[child] as number;
    i = child;
  }
  heap[i] = last;
  return top;
};
