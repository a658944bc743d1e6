/**
 * Small readers shared by the loopback Anthropic server's shape checks.
 *
 * Test support only: it is not part of the library.
 */

export type Check = string | undefined;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const own = (value: Record<string, unknown>, key: string): unknown =>
  Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;

export const required = (path: string): string => `${path}: Field required`;

export const string = (value: unknown, path: string): Check =>
  value === undefined
    ? required(path)
    : typeof value === 'string'
      ? undefined
      : `${path}: Input should be a valid string`;

/** The image media types the API accepts. */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The first problem that a check finds, or `undefined`. */
export const first = (...checks: (() => Check)[]): Check => {
  for (const check of checks) {
    const found = check();
    if (found !== undefined) return found;
  }
  return undefined;
};
