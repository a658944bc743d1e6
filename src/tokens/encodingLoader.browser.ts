import { TokenizerError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import type { EncodingName } from './encodings';
import { loadedCounter, type EncodingCounter } from './loadedEncodings';
import type { MemoryEncoding } from './memoryEncoding';

/*
 * The browser build's encodingLoader.ts (scripts/browserTwins.ts puts it in place of that file for
 * `dist/index.browser.*`, which the package's `"browser"` export condition selects). It loads
 * nothing: no `import()` of an encoding (so a bundler emits no encoding chunk for a page that
 * counts with 'heuristic'), no `require`, and none of the code that turns a gpt-tokenizer module
 * into a counter. `conversation-memory/encodings` does all three and keeps the counter where this
 * build finds it.
 */

/** The entry whose `loadTokenizer` has the encodings behind it, for this build's errors. */
const ENCODINGS_ENTRY = 'conversation-memory/encodings';

/**
 * What to do about an encoding this build has not loaded, for the errors of `createMemory`,
 * `fromDict` and the counting functions: the `loadTokenizer` to call is the one of
 * `conversation-memory/encodings` (this build's own only resolves once that one has loaded it),
 * with the import line, so the first error is enough.
 *
 * @param name - the encoding's name
 * @returns the advice, starting with "call"
 * @example
 * ```ts
 * loadAdvice('o200k_base');
 * // 'call `await loadTokenizer("o200k_base")` imported from conversation-memory/encodings (…'
 * ```
 * @internal
 */
export const loadAdvice = (name: string): string =>
  `call \`await loadTokenizer(${describeValue(name)})\` imported from ${ENCODINGS_ENTRY} ` +
  `(\`import { loadTokenizer } from '${ENCODINGS_ENTRY}';\`): the browser build keeps the ` +
  'encodings there, not in conversation-memory/tokens';

/**
 * The counter of an encoding that `conversation-memory/encodings` (or another copy of the
 * package) has loaded.
 *
 * @param name - an encoding name
 * @returns its counter, or `undefined` when it must be loaded first
 * @example
 * ```ts
 * tryEncodingCounter('o200k_base'); // undefined until the encodings subpath loads it
 * ```
 * @internal
 */
export const tryEncodingCounter = (name: EncodingName): EncodingCounter | undefined =>
  loadedCounter(name);

/**
 * Resolves when the encoding is already loaded, and otherwise rejects with the import to use.
 *
 * @param name - `'o200k_base'` or `'cl100k_base'`
 * @returns a promise that settles at once
 * @throws TokenizerError (as a rejection) when the encoding is not loaded yet
 * @example
 * ```ts
 * await loadEncoding('o200k_base'); // rejects: load it from 'conversation-memory/encodings'
 * ```
 * @internal
 */
export const loadEncoding = async (name: MemoryEncoding): Promise<void> => {
  if (loadedCounter(name) !== undefined) return;
  throw new TokenizerError(
    'loadTokenizer',
    `the ${describeValue(name)} encoding is not in the browser build of conversation-memory; ` +
      `import { loadTokenizer } from '${ENCODINGS_ENTRY}' and await that one ` +
      '(the same function, with the encodings as chunks a bundler can load)',
  );
};
