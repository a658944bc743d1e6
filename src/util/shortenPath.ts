/** Paths longer than this are shortened in the middle (a deeply nested value). */
const MAX_PATH = 160;

/**
 * Shortens a long value path for an error message, keeping its start and its end:
 * `a.a.a.a…a.a.when`.
 *
 * @internal
 */
export const shortenPath = (path: string): string =>
  path.length <= MAX_PATH ? path : `${path.slice(0, 60)}…${path.slice(-(MAX_PATH - 61))}`;
