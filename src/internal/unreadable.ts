import { isConversationMemoryError } from '../errors/errorBrand';
import { errorText } from '../util/errorText';

/** Our error classes that take `(api, what, { cause })`. */
type ArgumentErrorClass = new (api: string, what: string, options?: { cause?: unknown }) => Error;

/**
 * What to throw when reading a caller's value threw (a getter, a Proxy trap, a revoked Proxy):
 * our own errors pass through unchanged; anything else becomes `ErrorClass` saying
 * `<what> could not be read: <what it threw>` (shortened and escaped), with the original as
 * `cause`. So a caller never gets its own error, or a raw `TypeError`, out of our API.
 *
 * @internal
 */
export const unreadable = (
  error: unknown,
  ErrorClass: ArgumentErrorClass,
  api: string,
  what: string,
): Error =>
  isConversationMemoryError(error)
    ? error
    : new ErrorClass(api, `${what} could not be read: ${errorText(error)}`, { cause: error });
