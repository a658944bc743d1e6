/**
 * One value per JavaScript realm, shared by every copy of this package that is loaded (its ESM
 * and CJS builds side by side, or two installed versions): a tokenizer registered through
 * `import` must be known to code that came through `require`, and an encoding table should be
 * loaded once. Kept on `globalThis` under a versioned `Symbol.for` key, like the error brand; a
 * value of the wrong shape under that key (written by something else) is replaced.
 *
 * @internal
 */
export const shared = <T>(
  name: string,
  create: () => T,
  isValid: (value: unknown) => boolean,
): T => {
  // The version in the key changes whenever the shape of the value changes, so copies that
  // disagree on it never share it.
  const key = Symbol.for(`conversation-memory/${name}@1`);
  const holder = globalThis as unknown as Record<symbol, unknown>;
  const existing = holder[key];
  if (existing !== undefined && isValid(existing)) return existing as T;
  const value = create();
  Object.defineProperty(globalThis, key, { value, enumerable: false, configurable: true });
  return value;
};
