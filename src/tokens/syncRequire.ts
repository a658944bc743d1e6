/**
 * Node's `require`, as `createRequire` makes it.
 *
 * @example
 * ```ts
 * const load: SyncRequire = (id) => ({ id });
 * ```
 */
export type SyncRequire = (id: string) => unknown;

/** A POSIX path, a Windows drive path or a UNC path: never `[eval]` or `[stdin]`. */
const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * Where this module's code lives, best first, as `createRequire` accepts it.
 *
 * - `import.meta.url` when it is a `file:` URL. In the ESM build (and an ESM bundle) it is this
 *   file, whatever the global scope holds: under `node -e` or `node -p` a global `__filename` is
 *   `'[eval]'`, which must not win. The CJS build's bundler turns it into a URL made from the
 *   module's own `__filename`; in a CJS bundle made from the ESM build it is `undefined`.
 * - `__filename` when it is an absolute path: in the CJS build (and a CJS bundle) the module's own.
 *   A global one that is not a path (`'[eval]'`) is never used.
 */
const ownLocations = (): string[] => {
  const found: string[] = [];
  try {
    const url: unknown = import.meta.url;
    if (typeof url === 'string' && url.startsWith('file:')) found.push(url);
  } catch {
    // The CJS build's replacement for import.meta.url reads `require` and `__filename`, which a
    // bundle in ESM format may not have.
  }
  if (typeof __filename === 'string' && ABSOLUTE_PATH.test(__filename)) found.push(__filename);
  return found;
};

/**
 * A synchronous `require` that resolves from this module's own location, for Node (both our ESM
 * and CJS builds), found through `process.getBuiltinModule` so the browser core never imports a
 * Node built-in. `undefined` where there is none (browsers and other runtimes, or no usable
 * location); the caller asks again next time, since this can change (a test that removes and
 * restores `process.getBuiltinModule`).
 *
 * @returns a `require` resolving from this module, or `undefined`
 * @example
 * ```ts
 * findSyncRequire()?.('gpt-tokenizer/encoding/o200k_base');
 * ```
 * @internal
 */
export const findSyncRequire = (): SyncRequire | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let createRequire: unknown;
  try {
    createRequire = (proc?.getBuiltinModule?.('module') as { createRequire?: unknown } | undefined)
      ?.createRequire;
  } catch {
    return undefined;
  }
  if (typeof createRequire !== 'function') return undefined;
  for (const from of ownLocations()) {
    try {
      return (createRequire as (from: string) => SyncRequire)(from);
    } catch {
      // Not a location createRequire accepts: try the next one.
    }
  }
  return undefined;
};
