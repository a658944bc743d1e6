import { TokenizerError } from '../errors/memoryErrors';
import { describeValue } from '../util/describeValue';
import { errorText } from '../util/errorText';
import { adoptEncoding, type EncodingModule } from './adoptEncoding';
import type { EncodingName } from './encodings';
import { importEncoding } from './importEncoding';
import { loadedCounter, type EncodingCounter } from './loadedEncodings';
import type { MemoryEncoding } from './memoryEncoding';
import { findSyncRequire, type SyncRequire } from './syncRequire';

/*
 * How the root entry gets an encoding it has not loaded yet: synchronously through Node's
 * `require`, or asynchronously through `import()`. The root entry's browser build (the package's
 * `"browser"` export condition) replaces this file with encodingLoader.browser.ts, which has
 * neither (scripts/browserTwins.ts says why).
 */

/**
 * What to do about an encoding this runtime has not loaded, for the errors of `createMemory`,
 * `fromDict` and the counting functions: call the root entry's `loadTokenizer`, which loads it
 * with `import()` (the browser build, which cannot, names `conversation-memory/encodings`).
 *
 * @param name - the encoding's name
 * @returns the advice, starting with "call"
 * @example
 * ```ts
 * loadAdvice('o200k_base'); // 'call `await loadTokenizer("o200k_base")`'
 * ```
 * @internal
 */
export const loadAdvice = (name: string): string =>
  `call \`await loadTokenizer(${describeValue(name)})\``;

/** Found once, then kept; while none is found, each use looks again. */
let syncRequire: SyncRequire | undefined;

const isNotFound = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
};

/**
 * Returns the counter of an encoding, loading it synchronously on first use where the runtime
 * allows it (Node ≥ 20.16 with gpt-tokenizer resolvable from this file). Returns `undefined`
 * where it cannot (a browser, or a bundle that did not keep gpt-tokenizer beside it), and then
 * `loadTokenizer` must be awaited first. Throws a `TokenizerError` only when the encoding is
 * found but fails to load.
 *
 * @param name - an encoding name
 * @returns its counter, or `undefined` when it must be loaded with `loadTokenizer` first
 * @example
 * ```ts
 * tryEncodingCounter('o200k_base')?.('Hello, world!'); // 4 in Node
 * ```
 * @internal
 */
export const tryEncodingCounter = (name: EncodingName): EncodingCounter | undefined => {
  const ready = loadedCounter(name);
  if (ready !== undefined) return ready;
  syncRequire ??= findSyncRequire();
  if (syncRequire === undefined) return undefined;
  let module: EncodingModule;
  try {
    module = syncRequire(`gpt-tokenizer/encoding/${name}`) as EncodingModule;
  } catch (error) {
    // A bundle without node_modules beside it: loadTokenizer's import() finds the bundled chunk
    // instead. Not remembered: node_modules may appear later, and the next use looks again.
    if (isNotFound(error)) return undefined;
    throw new TokenizerError(
      'loadTokenizer',
      `loading the ${describeValue(name)} encoding failed: ${errorText(error)}`,
      { cause: error },
    );
  }
  return adoptEncoding(name, module);
};

/**
 * Loads an encoding asynchronously (code-split by bundlers), for runtimes without a synchronous
 * loader. Resolves at once when it is already loaded.
 *
 * @param name - `'o200k_base'` or `'cl100k_base'`
 * @returns a promise that settles when the encoding can count synchronously
 * @example
 * ```ts
 * await loadEncoding('o200k_base');
 * ```
 * @internal
 */
export const loadEncoding = async (name: MemoryEncoding): Promise<void> => {
  if (tryEncodingCounter(name) !== undefined) return;
  adoptEncoding(name, await importEncoding(name));
};
