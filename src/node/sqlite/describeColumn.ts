/**
 * A column's value, short, for a problem line: `NULL`, a number as written, text quoted and cut
 * at 40 characters, a blob by its size. The errors that carry problem lines escape them.
 *
 * @example
 * ```ts
 * describeColumn(null); // 'NULL'
 * describeColumn(2.5); // '2.5'
 * describeColumn('two'); // '"two"'
 * describeColumn(Buffer.from('{}')); // 'a blob of 2 bytes'
 * ```
 */
export const describeColumn = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return `a blob of ${value.length} bytes`;
  return typeof value;
};
