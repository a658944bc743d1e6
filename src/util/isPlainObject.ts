/**
 * True for `{}` literals, `JSON.parse` objects and `Object.create(null)` objects; false for
 * arrays, class instances (`Date`, `Map`) and primitives.
 *
 * @internal
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
