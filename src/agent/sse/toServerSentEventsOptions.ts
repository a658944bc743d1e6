import { MemoryArgumentError } from '../../errors/memoryErrors';
import { describeValue } from '../../util/describeValue';
import { unknownOption } from '../../util/unknownOption';
import { unreadable } from '../../internal/unreadable';

/**
 * Options of `toServerSentEvents` and `toServerSentEventsResponse`.
 *
 * @example
 * ```ts
 * // Only where every client may read the server's error text (a local tool, a test):
 * const options: ToServerSentEventsOptions = { exposeErrors: true };
 * ```
 */
export interface ToServerSentEventsOptions {
  /**
   * Send the source error's own message in the `event: error` frame (default `false`: the fixed
   * message `"internal error"` and the error's `code` only). An error's text can hold file
   * paths, SQL, keys, or a provider's message quoting the prompt: **unsafe for untrusted
   * clients**; turn on only where every client may read the server's errors.
   */
  readonly exposeErrors?: boolean;
}

/**
 * Checks {@link ToServerSentEventsOptions} and returns `exposeErrors`.
 *
 * @param options - the caller's options, or `undefined`
 * @param api - the API name for errors
 * @returns whether error text is sent
 * @throws MemoryArgumentError naming the option and the value received
 * @example
 * ```ts
 * readExposeErrors({ exposeErrors: true }, 'toServerSentEvents'); // true
 * ```
 * @internal
 */
export const readExposeErrors = (options: unknown, api: string): boolean => {
  try {
    return read(options, api);
  } catch (error) {
    // A getter or a Proxy trap that throws: our error, with the caller's as its cause.
    throw unreadable(error, MemoryArgumentError, api, 'options');
  }
};

const read = (options: unknown, api: string): boolean => {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new MemoryArgumentError(
      api,
      `options must be an object such as { exposeErrors: false }, received ${describeValue(options)}`,
    );
  }
  const unknown = unknownOption(options, ['exposeErrors'], 'options');
  if (unknown !== undefined) throw new MemoryArgumentError(api, unknown);
  const { exposeErrors = false } = options as ToServerSentEventsOptions;
  if (typeof exposeErrors !== 'boolean') {
    throw new MemoryArgumentError(
      api,
      `options.exposeErrors must be true or false, received ${describeValue(exposeErrors)}`,
    );
  }
  return exposeErrors;
};
