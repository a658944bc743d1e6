/**
 * An ISO 8601 date-time as Python's `datetime.fromisoformat` reads it (what the reference's
 * `datetime.isoformat()` writes): a date, then optionally `T` or a space and a time with up to
 * microseconds, then optionally `Z` or an offset. Groups: year, month, day, hour, minute,
 * second, fraction, `Z`, offset sign, offset hours, offset minutes, offset seconds.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?)?(?:(Z)|([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?)?$/u;

const field = (text: string | undefined): number => (text === undefined ? 0 : Number(text));

/**
 * Reads one of the reference's ISO timestamps (`2025-03-01T09:30:00.123456+00:00`) as
 * milliseconds since the epoch, microseconds kept as the fraction. A timestamp without an offset
 * is UTC, as the reference reads it (`created_at.replace(tzinfo=timezone.utc)`), never local
 * time. `undefined` for anything else (an impossible date such as February 30 included).
 *
 * @param text - the timestamp
 * @returns milliseconds since the epoch, or `undefined`
 * @example
 * ```ts
 * referenceTimeOf('1970-01-01T00:00:01.000500+00:00'); // 1000.5
 * referenceTimeOf('1970-01-01T01:00:00+01:00'); // 0
 * referenceTimeOf('2025-02-30T00:00:00'); // undefined
 * ```
 */
export const referenceTimeOf = (text: string): number | undefined => {
  const match = ISO.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, , sign, oh, om, os] = match;
  const year = field(y);
  const month = field(mo);
  const day = field(d);
  const hour = field(h);
  const minute = field(mi);
  const second = field(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const offsetHours = field(oh);
  const offsetMinutes = field(om);
  if (offsetHours > 23 || offsetMinutes > 59 || field(os) > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined; // February 30 rolled over
  date.setUTCHours(hour, minute, second, 0);
  const micros = fraction === undefined ? 0 : Number(fraction.padEnd(6, '0'));
  const offset = (offsetHours * 3600 + offsetMinutes * 60 + field(os)) * 1000;
  const utc = date.getTime() - (sign === '-' ? -offset : offset);
  // Microseconds as an exact fraction of a millisecond (`+ 456 / 1000`, not `* 0.001`).
  return utc + Math.floor(micros / 1000) + (micros % 1000) / 1000;
};
