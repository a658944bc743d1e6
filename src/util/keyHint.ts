/**
 * Hints for keys that are not fields, by key: what the caller probably meant (a snake_case name
 * from the reference's JSON, a name from another message format). Plain object literals, read
 * with own-property lookups only, so `constructor` or `toString` find no hint.
 *
 * @internal
 */
export type KeyHints = Readonly<Record<string, string>>;

/**
 * The hint for `key` as ` (did you mean …?)`, or `''` when there is none.
 *
 * @internal
 */
export const keyHint = (key: string, hints: KeyHints): string =>
  Object.hasOwn(hints, key) ? ` (did you mean ${hints[key]}?)` : '';
