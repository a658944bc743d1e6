/**
 * A short description of a value for an error message, never its whole content: a string quoted
 * (cut at 40 characters), `null`, `an array`, `an object`, `a function`, or the primitive.
 *
 * @param value - anything received
 * @returns the description
 * @internal
 */
export const describe = (value: unknown): string => {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
};
