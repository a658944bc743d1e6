import { TokenizerError } from '../errors/errorClasses';
import { errorText } from '../internal/errorText';
import { shared } from '../internal/shared';

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

type SyncRequire = (id: string) => unknown;

/**
 * A synchronous `require` for Node (both our ESM and CJS builds), found through
 * `process.getBuiltinModule` so the browser core never imports a Node built-in. `undefined` in
 * browsers and other runtimes, where `loadTokenizer` must be awaited first.
 */
const findSyncRequire = (): SyncRequire | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const moduleApi = proc?.getBuiltinModule?.('module') as
    { createRequire?: (from: string) => SyncRequire } | undefined;
  if (moduleApi?.createRequire === undefined) return undefined;
  const from = typeof __filename === 'string' ? __filename : import.meta.url;
  return moduleApi.createRequire(from);
};

let syncRequire: SyncRequire | null | undefined;

/** Encodings the synchronous loader failed on (a bundle without node_modules): not retried. */
const notLoadableSync = new Set<EncodingName>();

/**
 * Returns the counter of an encoding, loading it synchronously on first use where the runtime
 * allows it (Node ≥ 20.16 with gpt-tokenizer resolvable from this file). Returns `undefined`
 * where it cannot (a browser, or a bundle that did not keep gpt-tokenizer beside it), and then
 * `loadTokenizer` must be awaited first. Throws a `TokenizerError` only when the encoding is
 * found but fails to load.
 *
 * @internal
 */
export const tryEncodingCounter = (name: EncodingName): ((text: string) => number) | undefined => {
  const ready = loaded.get(name);
  if (ready !== undefined) return ready;
  if (notLoadableSync.has(name)) return undefined;
  try {
    if (syncRequire === undefined) syncRequire = findSyncRequire() ?? null;
  } catch {
    // createRequire refuses a module URL that is not a file (code loaded over https or data:).
    syncRequire = null;
  }
  if (syncRequire === null) return undefined;
  let module: EncodingModule;
  try {
    module = syncRequire(`gpt-tokenizer/encoding/${name}`) as EncodingModule;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      // A bundle without node_modules: loadTokenizer's import() finds the bundled chunk instead.
      notLoadableSync.add(name);
      return undefined;
    }
    throw new TokenizerError(
      'loadTokenizer',
      `loading the "${name}" encoding failed: ${errorText(error)}`,
      {
        cause: error,
      },
    );
  }
  return adopt(name, module);
};

/**
 * Returns the counter of an encoding, or throws a {@link TokenizerError} that says how to load it.
 *
 * @internal
 */
export const encodingCounter = (name: EncodingName, api: string): ((text: string) => number) => {
  const count = tryEncodingCounter(name);
  if (count !== undefined) return count;
  throw new TokenizerError(
    api,
    `the "${name}" encoding is not loaded and this runtime cannot load it synchronously; ` +
      `call \`await loadTokenizer("${name}")\` once before using it`,
  );
};

/**
 * Loads an encoding asynchronously (code-split by bundlers), for runtimes without a synchronous
 * loader. Resolves at once when it is already loaded.
 *
 * @internal
 */
export const loadEncoding = async (name: EncodingName): Promise<void> => {
  if (tryEncodingCounter(name) !== undefined) return;
  const modules: Record<EncodingName, () => Promise<EncodingModule>> = {
    o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
    cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
    p50k_base: () => import('gpt-tokenizer/encoding/p50k_base'),
    r50k_base: () => import('gpt-tokenizer/encoding/r50k_base'),
  };
  adopt(name, await modules[name]());
};
