import { quoteText } from './escapeText';

/** The longest key shown without quotes; a longer one is quoted and cut. */
const MAX_PLAIN_KEY = 60;

/** The edit distance of two short strings (insertions, deletions, substitutions). */
const distance = (a: string, b: string): number => {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
};

/** `snake_case` or any case folded to compare with camelCase names. */
const fold = (key: string): string => key.replace(/[_-]/g, '').toLowerCase();

/**
 * The option the caller probably meant by `key`: a hint given for it (`ttl` → `defaultTtl`), the
 * known option it equals once case and `_`/`-` are ignored, or the nearest one within two edits.
 *
 * @internal
 */
export const suggestOption = (
  key: string,
  known: readonly string[],
  hints: Readonly<Record<string, string>> = {},
): string | undefined => {
  if (Object.hasOwn(hints, key)) return hints[key];
  const folded = fold(key);
  const same = known.find((name) => fold(name) === folded);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const d = distance(folded, fold(name));
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return key.length > 2 ? best : undefined;
};

/**
 * The problem with the first own key of `options` that is not one of `known` (with a
 * did-you-mean and the list of options), or `undefined` when every key is known. `where` names
 * the object (`options`, `options.config`). Keys are read with `Object.keys` only (no getter
 * runs).
 *
 * @example
 * ```ts
 * unknownOption({ memroy: m }, ['provider', 'memory'], 'options');
 * // 'options.memroy is not an option (did you mean memory?); expected provider, memory'
 * ```
 * @internal
 */
export const unknownOption = (
  options: object,
  known: readonly string[],
  where: string,
  hints?: Readonly<Record<string, string>>,
): string | undefined => {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = suggestOption(key, known, hints);
    // A short identifier as is; anything else quoted, escaped and cut (a key can be any string).
    const name =
      key.length <= MAX_PLAIN_KEY && /^[A-Za-z_$][\w$]*$/.test(key)
        ? `${where}.${key}`
        : `${where}[${quoteText(key)}]`;
    const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
    return `${name} is not an option${hint}; expected ${known.join(', ')}`;
  }
  return undefined;
};
