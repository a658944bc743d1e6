import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { describeValue } from 'conversation-memory/store-kit';
import { GEN_AI } from './genAiAttributes';

/**
 * The `error.type` of a failure, low-cardinality as the conventions ask: the error's string
 * `code` (`'CM_PROVIDER_RESPONSE'`, `'ECONNRESET'`), else its numeric HTTP `status` (`'400'`, as
 * the openai and Anthropic clients' errors carry), else its `name` (`'AbortError'`,
 * `'TypeError'`), else `'_OTHER'`.
 *
 * @param error - what the call or tool threw
 * @returns the value for `error.type`
 * @example
 * ```ts
 * errorTypeOf(new TypeError('x')); // 'TypeError'
 * errorTypeOf('boom'); // '_OTHER'
 * ```
 */
export const errorTypeOf = (error: unknown): string => {
  if (typeof error !== 'object' || error === null) return '_OTHER';
  const { code, status, name } = error as { code?: unknown; status?: unknown; name?: unknown };
  if (typeof code === 'string' && code !== '') return code;
  if (typeof status === 'number' && Number.isInteger(status)) return String(status);
  if (typeof name === 'string' && name !== '') return name;
  return '_OTHER';
};

/** The longest `exception.type` written from an error's `name`. */
const MAX_TYPE = 100;

/**
 * The `exception.type` of a failure when its text is not recorded: an `Error`'s `name`
 * (`'TypeError'`, `'ProviderResponseError'`, `'AbortError'`; at most 100 characters), else
 * `error.type`'s value (`'_OTHER'` for a thrown string).
 *
 * @param error - what the call or tool threw
 * @param type - its `error.type`
 * @returns the value for `exception.type`
 * @example
 * ```ts
 * exceptionTypeOf(new TypeError('secret'), 'TypeError'); // 'TypeError'
 * ```
 */
export const exceptionTypeOf = (error: unknown, type: string): string => {
  const name = error instanceof Error ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name !== '' ? name.slice(0, MAX_TYPE) : type;
};

/**
 * Marks a span failed, as the conventions' "Recording errors" asks: status `ERROR`, `error.type`,
 * and the exception recorded as a span event. The error's text can hold what must not reach a
 * trace backend (file paths, SQL, keys, a provider's message quoting the prompt), so by default
 * only its type and code are recorded: `error.type` (the code, else the HTTP status, else the
 * name), an `exception` event with `exception.type` only (see {@link exceptionTypeOf}), and a
 * status without a description. With `recordContent`, the whole error: an `Error` as it is
 * (name, message, stack) with its message as the status description, any other thrown value only
 * as `describeValue` renders it (quoted, escaped, cut to 60 characters), never raw.
 *
 * @param span - the span to mark; the caller ends it
 * @param error - what the call or tool threw
 * @param recordContent - record the error's message and stack too (the observer's option)
 * @example
 * ```ts
 * recordFailure(span, new Error('timeout'), false);
 * span.end();
 * ```
 */
export const recordFailure = (span: Span, error: unknown, recordContent: boolean): void => {
  const type = errorTypeOf(error);
  span.setAttribute(GEN_AI.errorType, type);
  if (!recordContent) {
    span.recordException({ name: exceptionTypeOf(error, type) });
    span.setStatus({ code: SpanStatusCode.ERROR });
    return;
  }
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    return;
  }
  const message = `a non-Error value was thrown: ${describeValue(error)}`;
  span.recordException({ name: type, message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
};
