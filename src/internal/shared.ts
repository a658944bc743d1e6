/**
 * One value per JavaScript realm, shared by every copy of this package that is loaded (its ESM
 * and CJS builds side by side, or two installed versions): a tokenizer registered through
 * `import` must be known to code that came through `require`, and an encoding table should be
 * loaded once. Kept on `globalThis` under a `Symbol.for` key, like the error brand.
 *
 * @internal
 */
export const shared = <T>(name: string, create: () => T): T => {
  const key = Symbol.for(`conversation-memory/${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  const existing = holder[key];
  if (existing !== undefined) return existing;
  const value = create();
  Object.defineProperty(globalThis, key, { value, enumerable: false, configurable: true });
  return value;
};
