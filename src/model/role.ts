/**
 * Who wrote a message. The four values are exactly the reference library's `Role` values and are
 * case-sensitive (`'USER'` is not a role).
 *
 * @example
 * ```ts
 * const role: Role = 'tool';
 * ```
 */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * Every {@link Role}, in the order the reference declares them.
 *
 * @example
 * ```ts
 * ROLES.includes('assistant'); // true
 * ```
 */
export const ROLES: readonly Role[] = /* @__PURE__ */ Object.freeze([
  'user',
  'assistant',
  'system',
  'tool',
]);

/**
 * Tells whether a value is one of the four {@link Role} strings.
 *
 * @param value - anything
 * @returns `true` for `'system'`, `'user'`, `'assistant'` and `'tool'`
 * @example
 * ```ts
 * isRole('user'); // true
 * isRole('USER'); // false
 * ```
 */
export const isRole = (value: unknown): value is Role =>
  value === 'user' || value === 'assistant' || value === 'system' || value === 'tool';
