/** The brand that marks our errors across package copies (two installed versions agree on it). */
const BRAND: unique symbol = Symbol.for('conversation-memory/error') as never;

/**
 * The stable codes our errors carry, one per error class.
 *
 * @example
 * ```ts
 * const code: ErrorCode = 'CM_CONFIG';
 * ```
 */
export type ErrorCode =
  | 'CM_CONFIG'
  | 'CM_ARGUMENT'
  | 'CM_INVALID_MESSAGE'
  | 'CM_TOKENIZER'
  | 'CM_EMBEDDER'
  | 'CM_DECODE'
  | 'CM_LISTENER'
  | 'CM_AGENT_CONFIG'
  | 'CM_PROVIDER_RESPONSE'
  | 'CM_SSE'
  | 'CM_SESSION_CONFLICT'
  | 'CM_SESSION_CORRUPT'
  | 'CM_SESSION_ID'
  | 'CM_EVENT_CONFLICT'
  | 'CM_EVENT_CORRUPT'
  | 'CM_EVENT_PRUNED'
  | 'CM_STORE_UNAVAILABLE'
  | 'CM_KNOWLEDGE_EXTRACTION'
  | 'CM_KNOWLEDGE_CONFLICT'
  | 'CM_KNOWLEDGE_CORRUPT'
  | 'CM_EMBEDDING_NOT_PREPARED'
  | 'CM_EMBEDDING_REQUEST';

/** Every message starts with this prefix, so our errors are recognisable in any log. */
export const ERROR_PREFIX = '[conversation-memory]';

/**
 * Tells whether a value is an error thrown (or returned) by this library, from any installed copy
 * of it. Prefer this over `instanceof`, which fails across duplicated packages.
 *
 * @param value - anything caught
 * @returns `true` when the value carries our brand and a known `code`; never throws, even for a
 *   hostile value such as a Proxy whose traps throw
 * @example
 * ```ts
 * try {
 *   createMemory({ maxMessages: 0 });
 * } catch (error) {
 *   if (isConversationMemoryError(error)) console.log(error.code); // 'CM_CONFIG'
 * }
 * ```
 */
export const isConversationMemoryError = (
  value: unknown,
): value is Error & { readonly code: ErrorCode; readonly detail: string } => {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (
      (value as { [BRAND]?: unknown })[BRAND] === true &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  } catch {
    // A thrown Proxy whose traps throw is not ours.
    return false;
  }
};

/**
 * Marks an error instance with our brand, its code, and its `detail` (the message without the
 * `[conversation-memory] api:` prefix). Internal; each error class calls it once.
 *
 * @internal
 */
export const brandError = (error: Error, code: ErrorCode, name: string, detail: string): void => {
  Object.defineProperty(error, BRAND, { value: true, enumerable: false });
  Object.defineProperty(error, 'detail', { value: detail, enumerable: false });
  Object.defineProperty(error, 'code', { value: code, enumerable: true });
  Object.defineProperty(error, 'name', { value: name, enumerable: false, configurable: true });
};

/**
 * Builds `[conversation-memory] api: what`.
 *
 * @internal
 */
export const formatMessage = (api: string, what: string): string =>
  `${ERROR_PREFIX} ${api}: ${what}`;
