/**
 * The `code` of a Node.js system error (`'ENOENT'`, `'EEXIST'`, …), or `undefined` for anything
 * else: how the file store tells an absent file from a failure. Never throws.
 *
 * @example
 * ```ts
 * errorCode(Object.assign(new Error('x'), { code: 'ENOENT' })); // 'ENOENT'
 * errorCode(null); // undefined
 * ```
 */
export const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;
