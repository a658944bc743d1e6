import { escapeText, quoteText } from './escapeText';

/**
 * Renders a received value for an error message: strings quoted, shortened to 60 characters and
 * escaped (controls, line separators, bidi controls and lone surrogates as `\uXXXX`), numbers as
 * written (`NaN`, `Infinity`, `-0`), objects by kind. Never throws (a revoked Proxy is "an
 * unreadable value"), never prints a whole large object, never echoes a control character. Our
 * adapters and stores echo input only through it; a custom store should too.
 *
 * @param value - anything received
 * @returns a one-line description
 * @example
 * ```ts
 * describeValue('a\u202eb'); // '"a\\u202eb"'
 * describeValue([1, 2]); // 'an array of length 2'
 * describeValue(-0); // '-0'
 * ```
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
