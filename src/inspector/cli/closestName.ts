/**
 * The edit distance between two strings (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two neighbours each cost 1), in O(a·b) with two rows kept.
 *
 * @param a - one string
 * @param b - the other
 * @returns the number of edits
 * @example
 * ```ts
 * editDistance('htm', 'html'); // 1
 * editDistance('inpsect', 'inspect'); // 1 (a swap)
 * ```
 */
export const editDistance = (a: string, b: string): number => {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
};

/**
 * The name in `names` that `input` most probably misspells: the nearest by {@link editDistance}
 * (the first of equals), when it is at most 2 edits away and at most half its own length (so
 * `--x` suggests nothing). Compared in lower case, without leading dashes.
 *
 * @param input - what was typed (`--htm`, `inpsect`)
 * @param names - the known names, as they should be suggested (`--html`)
 * @returns the suggestion, or `null`
 * @example
 * ```ts
 * closestName('--htm', ['--at', '--json', '--html']); // '--html'
 * closestName('--colour', ['--at', '--json', '--html']); // null
 * ```
 */
export const closestName = (input: string, names: readonly string[]): string | null => {
  const bare = (name: string) => name.replace(/^-+/, '').toLowerCase();
  const typed = bare(input).slice(0, 64);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(typed, bare(name));
    if (distance < bestDistance && distance <= Math.min(2, Math.floor(bare(name).length / 2))) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
};
