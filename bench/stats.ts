/**
 * The median of a benchmark's samples with their smallest and largest: the figures every bench
 * table prints (`median [min–max]`). The samples are not changed.
 *
 * @example
 * ```ts
 * medianOf([3, 1, 2]); // { median: 2, min: 1, max: 3 }
 * ```
 */
export const medianOf = (
  samples: readonly number[],
): { median: number; min: number; max: number } => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)] as number,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
  };
};
