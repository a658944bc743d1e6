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

/**
 * Marks a span failed, as the conventions' "Recording errors" asks: status `ERROR` with the
 * error's message, `error.type`, and the exception recorded as a span event. An `Error` is
 * recorded as it is (name, message, stack); any other thrown value only as `describeValue`
 * renders it (quoted, escaped, cut to 60 characters), never raw.
 *
 * @param span - the span to mark; the caller ends it
 * @param error - what the call or tool threw
 * @example
 * ```ts
 * recordFailure(span, new Error('timeout'));
 * span.end();
 * ```
 */
export const recordFailure = (span: Span, error: unknown): void => {
  const type = errorTypeOf(error);
  span.setAttribute(GEN_AI.errorType, type);
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    return;
  }
  const message = `a non-Error value was thrown: ${describeValue(error)}`;
  span.recordException({ name: type, message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
};
