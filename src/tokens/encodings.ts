import { TokenizerError } from '../errors/errorClasses';
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
const loaded = shared('encodings', () => new Map<EncodingName, (text: string) => number>());

const adopt = (name: EncodingName, module: EncodingModule): ((text: string) => number) => {
  const count = (text: string): number =>
    text === '' ? 0 : module.countTokens(text, AS_PLAIN_TEXT);
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
 * `loadTokenizer` must be awaited first. Never throws.
 *
 * @internal
 */
export const tryEncodingCounter = (name: EncodingName): ((text: string) => number) | undefined => {
  const ready = loaded.get(name);
  if (ready !== undefined) return ready;
  if (notLoadableSync.has(name)) return undefined;
  if (syncRequire === undefined) syncRequire = findSyncRequire() ?? null;
  if (syncRequire === null) return undefined;
  try {
    return adopt(name, syncRequire(`gpt-tokenizer/encoding/${name}`) as EncodingModule);
  } catch {
    notLoadableSync.add(name);
    return undefined;
  }
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
