import { either as E } from 'fp-ts';
import * as t from 'io-ts';
import { MemoryConfigError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { isPlainObject } from '../internal/isPlainObject';
import { DEFAULT_CONFIG, type MemoryConfig } from '../model/config';
import { isKnownTokenizer, isTokenizerReady } from '../tokens/registry';
import { checkedCodec } from './checkedCodec';
import { Limit, NullableLimit } from './limits';
import { reportErrors } from './report';

const OPTION_KEYS = ['maxMessages', 'maxTokens', 'tokenizer'] as const;
const SNAKE_HINTS: Readonly<Record<string, string>> = {
  max_messages: 'maxMessages',
  max_tokens: 'maxTokens',
};

/**
 * Why a tokenizer name cannot be used here, or `undefined` when it can: unknown, or a built-in
 * encoding this runtime cannot load synchronously (a browser that has not awaited
 * `loadTokenizer`). Phrased to follow the field's name.
 *
 * @internal
 */
export const tokenizerProblem = (name: unknown): string | undefined => {
  if (!isKnownTokenizer(name)) {
    return `must be "o200k_base", "cl100k_base", "heuristic" or a name registered with registerTokenizer, received ${describeValue(name)}`;
  }
  if (!isTokenizerReady(name)) {
    return `must be loaded first in this runtime: call \`await loadTokenizer(${JSON.stringify(name)})\``;
  }
  return undefined;
};

/** A tokenizer name that is known and usable in this runtime. */
const Tokenizer = checkedCodec<string>('tokenizer name', tokenizerProblem);

const Options = t.type({
  maxMessages: Limit,
  maxTokens: NullableLimit,
  tokenizer: Tokenizer,
});

const unknownKeyProblems = (input: Record<string, unknown>): string[] =>
  Object.keys(input)
    .filter((key) => !(OPTION_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const hint = SNAKE_HINTS[key];
      return `${key} is not an option${hint ? ` (did you mean ${hint}?)` : ''}; expected ${OPTION_KEYS.join(', ')}`;
    });

/**
 * Validates memory options from anywhere (a form, a file, an environment variable) and fills the
 * defaults (`maxMessages: 20`, `maxTokens: null`, `tokenizer: 'o200k_base'`). Never throws.
 *
 * Each problem names the field and the value: `maxMessages must be at least 1, received 0`,
 * `maxTokens must be an integer, received 1.5`, `maxMessages must be a number, received string "20"`.
 * Unlike the reference, which accepts `1.5`, every limit must be an integer ≥ 1.
 *
 * @param input - `undefined` (all defaults) or an options object
 * @returns `Right(config)` or `Left(MemoryConfigError)` listing every problem
 * @example
 * ```ts
 * decodeConfig({ maxMessages: 10 }); // right({ maxMessages: 10, maxTokens: null, tokenizer: 'o200k_base' })
 * decodeConfig({ maxMessages: 0 }); // left(MemoryConfigError: ... maxMessages must be at least 1, received 0)
 * ```
 */
export const decodeConfig = (input: unknown): E.Either<MemoryConfigError, MemoryConfig> =>
  decodeConfigFor(input, 'decodeConfig');

/**
 * {@link decodeConfig}, with errors naming the public API that was called.
 *
 * @internal
 */
export const decodeConfigFor = (
  input: unknown,
  api: string,
): E.Either<MemoryConfigError, MemoryConfig> => {
  if (input === undefined) return decodeConfigFor({}, api);
  if (!isPlainObject(input)) {
    return E.left(
      new MemoryConfigError(api, [`options must be an object, received ${describeValue(input)}`]),
    );
  }
  const withDefaults = {
    maxMessages:
      input['maxMessages'] === undefined ? DEFAULT_CONFIG.maxMessages : input['maxMessages'],
    maxTokens: input['maxTokens'] === undefined ? DEFAULT_CONFIG.maxTokens : input['maxTokens'],
    tokenizer: input['tokenizer'] === undefined ? DEFAULT_CONFIG.tokenizer : input['tokenizer'],
  };
  const decoded = Options.decode(withDefaults);
  const problems = [
    ...unknownKeyProblems(input),
    ...(E.isLeft(decoded) ? reportErrors(decoded.left) : []),
  ];
  if (problems.length > 0 || E.isLeft(decoded)) return E.left(new MemoryConfigError(api, problems));
  return E.right(Object.freeze({ ...decoded.right }));
};
