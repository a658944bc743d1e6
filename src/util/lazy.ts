/**
 * A value made on first use, then kept: for module-level tables (word lists, patterns) that a
 * bundle which never calls their module's functions must not build, or ship. Call it with
 * `/* @__PURE__ *\/` so that an unused one is dropped whole.
 *
 * @param make - builds the value (called at most once)
 * @returns a function that returns the value
 * @example
 * ```ts
 * const vowels = lazy(() => new Set('aeiou'));
 * vowels().has('e'); // true
 * ```
 * @internal
 */
export const lazy = <T>(make: () => T): (() => T) => {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
};
