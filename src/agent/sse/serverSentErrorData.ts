import { isConversationMemoryError } from '../../errors/errorBrand';
import { describeValue } from '../../util/describeValue';

/**
 * The `message` of an `event: error` sent without the error's details (the default of
 * `toServerSentEvents`): the same text whatever failed, so nothing of the server's error text
 * (paths, SQL, keys, a provider's message quoting the prompt) reaches the client.
 *
 * @example
 * ```ts
 * SSE_GENERIC_ERROR_MESSAGE; // 'internal error'
 * ```
 * @internal
 */
export const SSE_GENERIC_ERROR_MESSAGE = 'internal error';

/** With `exposeErrors`, an error event's `message` is cut to this many characters. */
const MAX_ERROR_MESSAGE = 1000;
/** With `exposeErrors`, a `code` is cut to this many characters. */
const MAX_ERROR_CODE = 100;
/**
 * Without `exposeErrors`, a `code` is sent only when it looks like one: a short identifier
 * (`CM_PROVIDER_RESPONSE`, `ECONNRESET`, `rate_limit_exceeded`), never free text.
 */
const CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** The error's string `code` (ours, or any object's), or `undefined`; never throws. */
const codeOf = (error: unknown): string | undefined => {
  try {
    const code: unknown = isConversationMemoryError(error)
      ? error.code
      : typeof error === 'object' && error !== null
        ? (error as { code?: unknown }).code
        : undefined;
    return typeof code === 'string' && code !== '' ? code : undefined;
  } catch {
    return undefined;
  }
};

/** The error's own text: an `Error`'s `message`, a thrown string, else a description. */
const messageOf = (error: unknown): string => {
  try {
    return error instanceof Error
      ? String(error.message)
      : typeof error === 'string'
        ? error
        : describeValue(error);
  } catch {
    return 'an unreadable error';
  }
};

/**
 * What an `event: error` carries, never the stack. By default the fixed
 * {@link SSE_GENERIC_ERROR_MESSAGE} and the error's `code` when it is a short identifier; with
 * `expose`, the error's own message (an `Error`'s `message`, a thrown string, else a description
 * of the value; at most 1,000 characters) and its string `code` (at most 100).
 *
 * @param error - what the source threw
 * @param expose - send the error's own message (`toServerSentEvents`'s `exposeErrors`)
 * @returns the event's data
 * @example
 * ```ts
 * serverSentErrorData(new ProviderResponseError('x', 'SELECT * FROM users'), false);
 * // { message: 'internal error', code: 'CM_PROVIDER_RESPONSE' }
 * ```
 * @internal
 */
export const serverSentErrorData = (
  error: unknown,
  expose: boolean,
): { message: string; code?: string } => {
  const code = codeOf(error);
  if (!expose) {
    return code !== undefined && CODE.test(code)
      ? { message: SSE_GENERIC_ERROR_MESSAGE, code }
      : { message: SSE_GENERIC_ERROR_MESSAGE };
  }
  const message = messageOf(error).slice(0, MAX_ERROR_MESSAGE);
  return code === undefined ? { message } : { message, code: code.slice(0, MAX_ERROR_CODE) };
};
