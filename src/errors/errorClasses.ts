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
  /** One line per problem, each naming the field and the value received. */
  readonly problems: readonly string[];
  constructor(api: string, problems: readonly string[]) {
    super(formatMessage(api, problems.join('; ')));
    this.problems = problems;
    brandError(this, 'CM_CONFIG', 'MemoryConfigError');
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
  constructor(api: string, what: string) {
    super(formatMessage(api, what));
    brandError(this, 'CM_ARGUMENT', 'MemoryArgumentError');
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
  constructor(api: string, what: string) {
    super(formatMessage(api, what));
    brandError(this, 'CM_INVALID_MESSAGE', 'InvalidMessageError');
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
  constructor(api: string, what: string) {
    super(formatMessage(api, what));
    brandError(this, 'CM_TOKENIZER', 'TokenizerError');
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
  /** One line per problem, each starting with the path of the offending value. */
  readonly problems: readonly string[];
  constructor(api: string, problems: readonly string[]) {
    super(formatMessage(api, `invalid input:\n  ${problems.join('\n  ')}`));
    this.problems = problems;
    brandError(this, 'CM_DECODE', 'MemoryDecodeError');
  }
}

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
  constructor(api: string, cause: unknown, failures: number) {
    super(
      formatMessage(
        api,
        `${failures} listener(s) threw; the state change was kept. First error: ${String(cause)}`,
      ),
      { cause },
    );
    brandError(this, 'CM_LISTENER', 'ListenerError');
  }
}
