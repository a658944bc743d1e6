import { errorText } from '../util/errorText';
import { brandError, formatMessage } from './errorBrand';

/** Errors list at most this many problems; `problemCount` tells how many there were. */
const MAX_LISTED_PROBLEMS = 20;

/** The closing line for problems that are found but not listed: `… and 30 more problems`. */
const leftOut = (listed: number, total: number, complete: boolean): string[] => {
  const more = total - listed;
  if (more <= 0) return [];
  const plural = more === 1 ? '' : 's';
  return complete
    ? [`… and ${more} more problem${plural} (${total} in all)`]
    : [`… and at least ${more} more problem${plural} (stopped looking after ${total})`];
};

/**
 * Thrown by `createMemory` and the `ConversationMemory` constructor for invalid options; returned
 * (never thrown) by `decodeConfig`. A `RangeError`, like the reference's `ValueError`. For options
 * that could not be read (a getter or a Proxy trap that throws, a revoked Proxy), the problem is
 * `options could not be read: …` and `cause` is what was thrown.
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
  /** One line per problem (at most 20), each naming the field and the value received. */
  readonly problems: readonly string[];
  /** How many problems were found in all; more than `problems.length` when some are not listed. */
  readonly problemCount: number;
  constructor(
    api: string,
    problems: readonly string[],
    problemCount = problems.length,
    options?: { cause?: unknown },
  ) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const detail = [...listed, ...leftOut(listed.length, problemCount, true)].join('; ');
    super(formatMessage(api, detail), options);
    this.problems = listed;
    this.problemCount = Math.max(problemCount, listed.length);
    brandError(this, 'CM_CONFIG', 'MemoryConfigError', detail);
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
 * Thrown for embedder misuse: registering a taken name, or an embedder that throws or returns
 * something other than a non-empty list of finite numbers with a length other than zero.
 *
 * @example
 * ```ts
 * try { registerEmbedder('lexical', () => [1]); } catch (e) { (e as EmbedderError).code; } // 'CM_EMBEDDER'
 * ```
 */
export class EmbedderError extends Error {
  declare readonly code: 'CM_EMBEDDER';
  /** The message without the `[conversation-memory] api:` prefix. */
  declare readonly detail: string;
  constructor(api: string, what: string, options?: { cause?: unknown }) {
    super(formatMessage(api, what), options);
    brandError(this, 'CM_EMBEDDER', 'EmbedderError', what);
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
  /** One line per problem (at most 20), each starting with the path of the offending value. */
  readonly problems: readonly string[];
  /**
   * How many problems were found in all; more than `problems.length` when some are not listed.
   * A decoder stops looking after 1,000 problems (so that rejecting a huge input stays cheap):
   * then `countComplete` is `false` and this is a lower bound.
   */
  readonly problemCount: number;
  /** `false` when the decoder stopped counting problems, so `problemCount` is a lower bound. */
  readonly countComplete: boolean;
  /**
   * What failed: `'data'`, the input itself is not a valid memory (a corrupt or foreign file);
   * `'version'`, an envelope written by a newer version of this library (leave it as it is);
   * `'tokenizer'`, the data is fine but its tokenizer cannot count here (unknown, not loaded in
   * this runtime, or it failed on a message), so the file must not be discarded as corrupt.
   */
  readonly kind: DecodeFailureKind;
  constructor(
    api: string,
    problems: readonly string[],
    options: DecodeErrorOptions | DecodeFailureKind = {},
  ) {
    // A bare kind is what this constructor took before problem counts (0.1.0).
    const {
      kind = 'data',
      problemCount = problems.length,
      countComplete = true,
    } = typeof options === 'string' ? { kind: options } : options;
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const lines = [...listed, ...leftOut(listed.length, problemCount, countComplete)];
    const detail = `invalid input:\n  ${lines.join('\n  ')}`;
    super(formatMessage(api, detail));
    this.problems = listed;
    this.problemCount = Math.max(problemCount, listed.length);
    this.countComplete = countComplete;
    this.kind = kind;
    brandError(this, 'CM_DECODE', 'MemoryDecodeError', detail);
  }
}

/**
 * How a {@link MemoryDecodeError} was found: its kind, and the number of problems in all when
 * more were found than are listed.
 *
 * @example
 * ```ts
 * const options: DecodeErrorOptions = { kind: 'data', problemCount: 50 };
 * ```
 */
export interface DecodeErrorOptions {
  readonly kind?: DecodeFailureKind;
  readonly problemCount?: number;
  readonly countComplete?: boolean;
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
export type DecodeFailureKind = 'data' | 'tokenizer' | 'version';

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
  /** The effects of the change the listeners were told about (the change was kept). */
  readonly effects: readonly unknown[];
  constructor(api: string, cause: unknown, failures: number, effects: readonly unknown[] = []) {
    const detail = `${failures} listener(s) threw; the state change was kept. First error: ${errorText(cause)}`;
    super(formatMessage(api, detail), { cause });
    this.effects = effects;
    brandError(this, 'CM_LISTENER', 'ListenerError', detail);
  }
}
