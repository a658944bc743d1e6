/**
 * Python's whitespace (`str.isspace`), which `str.strip()` removes and `str.split()` splits on:
 * not the same set as `\s`. A regular-expression class, as source text.
 *
 * @internal
 */
export const PY_SPACE =
  '[\\t\\n\\u000b\\u000c\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
/**
 * A regular expression around {@link PY_SPACE}. Its constants are made by a pure call whose
 * arguments are a function and a string, so a bundler drops them from a page that never uses
 * them (a template literal argument would keep them: it may run code).
 */
const pythonRegExp = (pattern: (space: string) => string, flags?: string): RegExp =>
  new RegExp(pattern(PY_SPACE), flags);

const PY_STRIP = /* @__PURE__ */ pythonRegExp((space) => `^${space}+|${space}+$`, 'g');

/**
 * Python's `text.strip()`: Python's whitespace removed from both ends.
 *
 * @internal
 */
export const pythonStrip = (text: string): string => text.replace(PY_STRIP, '');

const PY_SPLIT = /* @__PURE__ */ pythonRegExp((space) => `${space}+`);

/**
 * Python's `text.split()`: the words between runs of Python's whitespace, empty ones left out.
 *
 * @internal
 */
export const pythonSplit = (text: string): string[] =>
  text.split(PY_SPLIT).filter((word) => word !== '');

/**
 * Python's `f"{value:.1f}"`: correctly rounded to one decimal, exact halves (0.25, 0.75, …, the
 * only doubles that are ties at one decimal) rounded to even, where `toFixed` rounds them up.
 *
 * @internal
 */
export const pythonOneDecimal = (value: number): string => {
  if (Object.is(value, -0)) return '-0.0';
  const quarters = value * 4;
  if (Number.isInteger(quarters) && quarters % 2 !== 0) {
    const tenths = Math.floor(value * 10);
    const even = tenths % 2 === 0 ? tenths : tenths + 1;
    return (even / 10).toFixed(1);
  }
  return value.toFixed(1);
};

/**
 * Python's `text[:end]` counted in code points, as the reference cuts: a negative `end` counts
 * from the end.
 *
 * @internal
 */
export const pythonHead = (text: string, end: number): string => {
  const points = Array.from(text);
  return points.slice(0, end < 0 ? Math.max(0, points.length + end) : end).join('');
};
