import { TokenizerError } from '../errors/memoryErrors';
import { isConversationMemoryError } from '../errors/errorBrand';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { shared } from '../util/shared';
import type { TokenizerName } from '../model/config';
import type { Message } from '../model/message';
import { loadEncoding, tryEncodingCounter } from './encodingLoader';
import { encodingCounter } from './encodings';
import { countHeuristicTokens } from './heuristic';
import { countMessageWith } from './messageText';
import { isSameCounter } from './sameCounter';

/**
 * Counts the tokens of one message. Must be pure and deterministic (a replay calls it again) and
 * return a non-negative integer.
 *
 * @example
 * ```ts
 * const countWords: MessageTokenCounter = (m) => (m.content ?? '').split(/\s+/).filter(Boolean).length;
 * ```
 */
export type MessageTokenCounter = (message: Message) => number;

/**
 * The names that always exist. `o200k_base` and `cl100k_base` load their tables on first use.
 *
 * @example
 * ```ts
 * BUILT_IN_TOKENIZERS.includes('heuristic'); // true
 * ```
 */
export const BUILT_IN_TOKENIZERS: readonly TokenizerName[] = Object.freeze([
  'o200k_base',
  'cl100k_base',
  'heuristic',
]);

/** Custom tokenizers, shared by every copy of the package loaded in this realm (ESM and CJS). */
const custom = shared(
  'tokenizers',
  () => new Map<string, MessageTokenCounter>(),
  (value) => value instanceof Map,
);

const isEncoding = (name: string): name is 'o200k_base' | 'cl100k_base' =>
  name === 'o200k_base' || name === 'cl100k_base';

/**
 * Tells whether a tokenizer name is known (built in, or registered).
 *
 * @param name - a tokenizer name
 * @returns `true` when a memory may use it
 * @example
 * ```ts
 * isKnownTokenizer('heuristic'); // true
 * isKnownTokenizer('words'); // false until registerTokenizer('words', ...)
 * ```
 */
export const isKnownTokenizer = (name: unknown): name is TokenizerName =>
  typeof name === 'string' && (BUILT_IN_TOKENIZERS.includes(name) || custom.has(name));

/**
 * Adds a custom tokenizer under a new name, for use as `createMemory({ tokenizer: name })`.
 *
 * A name is bound for good, since states already counted with one function would stop agreeing
 * with a recount by another. Registering again under a taken name is accepted only for:
 * - the same function object; or
 * - a new function object from the same definition, as when a module that registers its
 *   tokenizer is loaded twice (a test runner's `resetModules`, hot reload). It must have the same
 *   source text (`Function.prototype.toString`), that text must not be native code (every bound
 *   function, native function and Proxy shows `function () { [native code] }`), and both
 *   functions must give the same result, or throw the same error, on each of a fixed set of probe
 *   messages (plain text, empty text, `null` content, tool calls with parameters, content parts, a
 *   tool result). Closures from one factory over different values fail that test.
 *
 * Anything else under a taken name (or a built-in name) throws. The registry is shared by every
 * copy of this package in the realm (its ESM and CJS builds).
 *
 * @param name - a non-empty name, not a built-in one
 * @param count - counts one message; pure, returning a non-negative integer
 * @throws TokenizerError for a built-in or taken name, an empty name, or a non-function
 * @example
 * ```ts
 * registerTokenizer('words', (m) => (m.content ?? '').split(/\s+/).filter(Boolean).length);
 * const memory = createMemory({ maxTokens: 100, tokenizer: 'words' });
 * ```
 */
export const registerTokenizer = (name: string, count: MessageTokenCounter): void => {
  const api = 'registerTokenizer';
  if (typeof name !== 'string' || name === '') {
    throw new TokenizerError(
      api,
      `name must be a non-empty string, received ${describeValue(name)}`,
    );
  }
  if (typeof count !== 'function') {
    throw new TokenizerError(api, `count must be a function, received ${describeValue(count)}`);
  }
  if (BUILT_IN_TOKENIZERS.includes(name)) {
    throw new TokenizerError(
      api,
      `${describeValue(name)} is a built-in tokenizer and cannot be replaced`,
    );
  }
  const existing = custom.get(name);
  if (existing !== undefined && !isSameCounter(existing, count)) {
    throw new TokenizerError(
      api,
      `${describeValue(name)} is already registered with another function; choose a new name`,
    );
  }
  custom.set(name, count);
};

/**
 * Loads a built-in encoding ahead of use. Needed only in runtimes that cannot load it
 * synchronously (browsers); in Node the first count loads it. Resolves at once for `'heuristic'`
 * and registered names.
 *
 * @param name - a tokenizer name
 * @returns a promise that settles when the tokenizer can count synchronously
 * @throws TokenizerError (as a rejection) for an unknown name
 * @example
 * ```ts
 * await loadTokenizer('o200k_base'); // in a browser, before createMemory()
 * ```
 */
export const loadTokenizer = async (name: TokenizerName): Promise<void> => {
  if (isEncoding(name)) return loadEncoding(name);
  if (!isKnownTokenizer(name)) {
    throw new TokenizerError('loadTokenizer', `unknown tokenizer ${describeValue(name)}`);
  }
};

/**
 * Whether a known tokenizer can count right now (its table is loaded, or loadable synchronously).
 *
 * @param name - a known tokenizer name
 * @returns `false` for a built-in encoding that must be loaded with `loadTokenizer` first
 * @example
 * ```ts
 * isTokenizerReady('heuristic'); // true
 * ```
 * @internal
 */
export const isTokenizerReady = (name: TokenizerName): boolean =>
  isEncoding(name) ? tryEncodingCounter(name) !== undefined : isKnownTokenizer(name);

/** A counter's result, validated: a safe integer ≥ 0, with `-0` stored as `0` (JSON has no `-0`). */
const checkCount = (name: string, value: unknown, api: string): number => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
    return value === 0 ? 0 : value;
  throw new TokenizerError(
    api,
    `tokenizer ${describeValue(name)} must return a non-negative integer, returned ${describeValue(value)}`,
  );
};

/** Runs a custom counter; whatever it throws (other than our own errors) becomes a TokenizerError. */
const runCounter = (
  name: string,
  count: MessageTokenCounter,
  message: Message,
  api: string,
): unknown => {
  try {
    return count(message);
  } catch (error) {
    if (isConversationMemoryError(error)) throw error;
    throw new TokenizerError(api, `tokenizer ${describeValue(name)} threw ${errorText(error)}`, {
      cause: error,
    });
  }
};

/**
 * Counts one message with the named tokenizer. Called once per message, when it enters a state.
 *
 * @param name - a known tokenizer name (the state's `config.tokenizer`)
 * @param message - a canonical message
 * @param api - the public function to name in errors (the one the caller called)
 * @returns its token count
 * @throws TokenizerError for an unknown name, a custom counter that throws (the error is its
 *   `cause`), or a custom counter's invalid result
 * @example
 * ```ts
 * countMessageTokens('heuristic', userMessage('abcdefgh')); // 2
 * ```
 */
export const countMessageTokens = (
  name: TokenizerName,
  message: Message,
  api = 'countMessageTokens',
): number => {
  if (name === 'heuristic') return countHeuristicTokens(message);
  if (isEncoding(name)) return countMessageWith(message, encodingCounter(name, api));
  const count = custom.get(name);
  if (count === undefined) {
    throw new TokenizerError(api, `unknown tokenizer ${describeValue(name)}`);
  }
  return checkCount(name, runCounter(name, count, message, api), api);
};
