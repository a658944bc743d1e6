/**
 * Renders a received value for an error message: strings quoted, numbers as written (`NaN`,
 * `Infinity`), objects by kind. Never throws, never prints a whole large object.
 *
 * @internal
 */
export const describeValue = (value: unknown): string => {
  try {
    return describe(value);
  } catch {
    // A revoked Proxy, or an object whose prototype chain throws when read.
    return 'an unreadable value';
  }
};

const describe = (value: unknown): string => {
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return typeof value === 'bigint' ? `${String(value)}n` : String(value);
  }
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return 'an object';
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? `a ${ctor.name}` : 'an object';
};

/**
 * `received <value>`, with the JavaScript type named for strings given where a number was expected.
 *
 * @internal
 */
export const received = (value: unknown): string =>
  typeof value === 'string'
    ? `received string ${describeValue(value)}`
    : `received ${describeValue(value)}`;
