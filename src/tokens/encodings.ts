import { TokenizerError } from '../errors/memoryErrors';
import { describeValue } from '../internal/describeValue';
import { errorText } from '../internal/errorText';
import { shared } from '../internal/shared';
import { countInPieces } from './piecesForCounting';
import { findSyncRequire, type SyncRequire } from './syncRequire';

/**
 * The gpt-tokenizer encodings this library can load. Each one is a large table (o200k is 2.4 MB of
 * JavaScript, about 100 ms to load), so none is loaded until a memory or `estimateTokens` uses it.
 *
 * @example
 * ```ts
 * const name: EncodingName = 'cl100k_base';
 * ```
 */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base';

/** The one function we need from an encoding module. */
interface EncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

/** Text like `<|endoftext|>` is counted as ordinary text, as tiktoken's `disallowed_special=()`. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Loaded counters, shared by the ESM and CJS builds so each table is loaded once per process.
 * Named apart from 0.1.0's `encodings` slot: a counter of that release is quadratic on long
 * whitespace runs, and must not be picked up when both releases are loaded side by side.
 */
const loaded = shared(
  'encodings-linear',
  () => new Map<EncodingName, (text: string) => number>(),
  (value) => value instanceof Map,
);

const adopt = (name: EncodingName, module: EncodingModule): ((text: string) => number) => {
  const countPiece = (piece: string): number => module.countTokens(piece, AS_PLAIN_TEXT);
  const count = (text: string): number => countInPieces(countPiece, name, text);
  loaded.set(name, count);
  return count;
};

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
export const tryEncodingCounter = (name: EncodingName): ((text: string) => number) | undefined => {
  const ready = loaded.get(name);
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
  return adopt(name, module);
};

/**
 * Returns the counter of an encoding, or throws a {@link TokenizerError} that says how to load it.
 *
 * @param name - an encoding name
 * @param api - the public function to name in the error
 * @returns its counter
 * @example
 * ```ts
 * encodingCounter('cl100k_base', 'estimateTokens')('Hello, world!'); // 4
 * ```
 * @internal
 */
export const encodingCounter = (name: EncodingName, api: string): ((text: string) => number) => {
  const count = tryEncodingCounter(name);
  if (count !== undefined) return count;
  throw new TokenizerError(
    api,
    `the ${describeValue(name)} encoding is not loaded and this runtime cannot load it synchronously; ` +
      `call \`await loadTokenizer(${JSON.stringify(name)})\` once before using it`,
  );
};

/** The dynamic import of each encoding (bundlers make each one a separate chunk). */
const importEncoding = (name: EncodingName): Promise<EncodingModule> => {
  switch (name) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
    case 'p50k_base':
      return import('gpt-tokenizer/encoding/p50k_base');
    case 'r50k_base':
      return import('gpt-tokenizer/encoding/r50k_base');
  }
};

/**
 * Loads an encoding asynchronously (code-split by bundlers), for runtimes without a synchronous
 * loader. Resolves at once when it is already loaded.
 *
 * @param name - an encoding name
 * @returns a promise that settles when the encoding can count synchronously
 * @example
 * ```ts
 * await loadEncoding('o200k_base');
 * ```
 * @internal
 */
export const loadEncoding = async (name: EncodingName): Promise<void> => {
  if (tryEncodingCounter(name) !== undefined) return;
  adopt(name, await importEncoding(name));
};
