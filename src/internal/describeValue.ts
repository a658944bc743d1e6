import { escapeText, quoteText } from './escapeText';

/**
 * Renders a received value for an error message: strings quoted, shortened and escaped, numbers
 * as written (`NaN`, `Infinity`, `-0`), objects by kind. Never throws, never prints a whole
 * large object, never echoes a control character.
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
  if (typeof value === 'string') return quoteText(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return `${String(value)}n`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return `an array of length ${(value as unknown[]).length}`;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return 'an object';
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== ''
    ? `a ${escapeText(ctor.name, 40)}`
    : 'an object';
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
