import { errorText } from '../internal/errorText';
import { brandError, formatMessage } from './ConversationMemoryError';

/**
 * Thrown by `createMemory` and the `ConversationMemory` constructor for invalid options; returned
 * (never thrown) by `decodeConfig`. A `RangeError`, like the reference's `ValueError`.
 *
 * @example
 * ```ts
 * try { createMemory({ maxMessages: 0 }); } catch (e) { e instanceof MemoryConfigError; } // true
 * ```
 */
export class MemoryConfigError extends RangeError {
  declare readonly code: 'CM_CONFIG';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** One line per problem, each naming the field and the value received. */
  readonly problems: readonly string[];
  constructor(api: string, problems: readonly string[]) {
    super(formatMessage(api, problems.join('; ')));
    this.problems = problems;
    brandError(this, 'CM_CONFIG', 'MemoryConfigError', problems.join('; '));
  }
}

/**
 * Thrown for an invalid argument to a selector or facade method, such as `getRecent(state, 0)`.
 *
 * @example
 * ```ts
 * try { getRecent(createMemory(), 0); } catch (e) { (e as Error).message; } // '… n must be at least 1, received 0'
 * ```
 */
export class MemoryArgumentError extends RangeError {
  declare readonly code: 'CM_ARGUMENT';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_ARGUMENT', 'MemoryArgumentError', what);
  }
}

/**
 * Thrown when a value passed as a message is not a valid `Message` (a JavaScript caller, or a cast).
 * The message names the field and the value; the state is left untouched.
 *
 * @example
 * ```ts
 * try { addMessage(createMemory(), { role: 'USER', content: 'hi' } as never); } catch (e) {
 *   (e as Error).message; // '… message.role must be one of "user", "assistant", "system", "tool", received "USER"'
 * }
 * ```
 */
export class InvalidMessageError extends TypeError {
  declare readonly code: 'CM_INVALID_MESSAGE';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_INVALID_MESSAGE', 'InvalidMessageError', what);
  }
}

/**
 * Thrown for tokenizer misuse: registering a taken name, a counter that returns something other
 * than a non-negative integer, or an encoding that cannot be loaded synchronously here.
 *
 * @example
 * ```ts
 * try { registerTokenizer('heuristic', () => 1); } catch (e) { (e as TokenizerError).code; } // 'CM_TOKENIZER'
 * ```
 */
export class TokenizerError extends Error {
  declare readonly code: 'CM_TOKENIZER';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_TOKENIZER', 'TokenizerError', what);
  }
}

/**
 * The failure of `fromDict`: every problem found in the input, each with the path of the value
 * (`messages[3].role: expected "user" | "assistant" | "system" | "tool", got "USER"`). Returned in
 * an `Either`; thrown only by the facade's `ConversationMemory.fromDict`.
 *
 * @example
 * ```ts
 * const result = fromDict({ max_messages: 'x' });
 * if (isLeft(result)) result.left.problems; // ['max_messages: …']
 * ```
 */
export class MemoryDecodeError extends Error {
  declare readonly code: 'CM_DECODE';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  /** One line per problem, each starting with the path of the offending value. */
  readonly problems: readonly string[];
  /**
   * What failed: `'data'`, the input itself is not a valid memory (a corrupt or foreign file);
   * `'tokenizer'`, the data is fine but its tokenizer cannot count here (unknown, not loaded in
   * this runtime, or it failed on a message), so the file must not be discarded as corrupt.
   */
  readonly kind: DecodeFailureKind;
  constructor(api: string, problems: readonly string[], kind: DecodeFailureKind = 'data') {
    const detail = `invalid input:\n  ${problems.join('\n  ')}`;
    super(formatMessage(api, detail));
    this.problems = problems;
    this.kind = kind;
    brandError(this, 'CM_DECODE', 'MemoryDecodeError', detail);
  }
}

/**
 * Why a decode failed: bad data, or a tokenizer that cannot count here (see
 * {@link MemoryDecodeError.kind}).
 *
 * @example
 * ```ts
 * const kind: DecodeFailureKind = 'tokenizer';
 * ```
 */
export type DecodeFailureKind = 'data' | 'tokenizer';

/**
 * Thrown by the facade after a subscriber threw. Every listener has been called and the state
 * change is kept; `cause` holds the first error.
 *
 * @example
 * ```ts
 * memory.subscribe(() => { throw new Error('boom'); });
 * try { memory.add(userMessage('hi')); } catch (e) { (e as ListenerError).cause; } // Error('boom')
 * ```
 */
export class ListenerError extends Error {
  declare readonly code: 'CM_LISTENER';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, cause: unknown, failures: number) {
    const detail = `${failures} listener(s) threw; the state change was kept. First error: ${errorText(cause)}`;
    super(formatMessage(api, detail), { cause });
    brandError(this, 'CM_LISTENER', 'ListenerError', detail);
  }
}
