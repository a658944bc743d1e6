import { TokenizerError } from '../errors/errorClasses';
import { describeValue } from '../internal/describeValue';
import { errorText } from '../internal/errorText';
import { shared } from '../internal/shared';
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

/** Loaded counters, shared by the ESM and CJS builds so each table is loaded once per process. */
const loaded = shared(
  'encodings',
  () => new Map<EncodingName, (text: string) => number>(),
  (value) => value instanceof Map,
);

/**
 * A run this long of letters, or of punctuation, is one pre-token for the BPE, whose cost grows
 * with the square of the run (gpt-tokenizer takes 4 s for 100,000 "x"). Such runs are counted in
 * pieces of this size: linear time, and within a token per piece of the one-shot count (exact for
 * repeated characters, 0.1% off for random letters). Text without such runs is counted as is.
 */
const RUN_PIECE = 256;
const LONG_RUN = /[\p{L}\p{M}]{256,}|[^\s\p{L}\p{M}\p{N}]{256,}/gu;

/** The end of a piece starting at `from`, moved so that it never splits a surrogate pair. */
const pieceEnd = (text: string, from: number, to: number): number => {
  const end = Math.min(from + RUN_PIECE, to);
  const unit = text.charCodeAt(end - 1);
  return end < to && unit >= 0xd800 && unit <= 0xdbff ? end + 1 : end;
};

const isAsciiSpace = (unit: number): boolean => unit === 32 || (unit >= 9 && unit <= 13);

/**
 * Whether the text has `RUN_PIECE` characters in a row without ASCII whitespace: a cheap, sound
 * pre-check (a long pre-token has no whitespace) that reads a few characters per `RUN_PIECE`
 * instead of every character. It probes the last character of each candidate window and, when
 * that is not whitespace, looks back for whitespace that rules the window out.
 */
const mayHaveLongRun = (text: string): boolean => {
  let end = RUN_PIECE - 1;
  while (end < text.length) {
    let i = end;
    while (i > end - RUN_PIECE && !isAsciiSpace(text.charCodeAt(i))) i--;
    if (i === end - RUN_PIECE) return true;
    end = i + RUN_PIECE;
  }
  return false;
};

const countBounded = (module: EncodingModule, text: string): number => {
  if (!mayHaveLongRun(text)) return module.countTokens(text, AS_PLAIN_TEXT);
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return module.countTokens(text, AS_PLAIN_TEXT);
  let total = 0;
  let done = 0;
  LONG_RUN.lastIndex = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const start = match.index;
    const end = start + match[0].length;
    if (start > done) total += module.countTokens(text.slice(done, start), AS_PLAIN_TEXT);
    for (let from = start; from < end;) {
      const to = pieceEnd(text, from, end);
      total += module.countTokens(text.slice(from, to), AS_PLAIN_TEXT);
      from = to;
    }
    done = end;
  }
  if (done < text.length) total += module.countTokens(text.slice(done), AS_PLAIN_TEXT);
  return total;
};

const adopt = (name: EncodingName, module: EncodingModule): ((text: string) => number) => {
  const count = (text: string): number => (text === '' ? 0 : countBounded(module, text));
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
