// The entry file of each import name of the package, read from tsconfig.json's `paths`: the one
// map from `conversation-memory` and `conversation-memory/<subpath>` to src/ that TypeScript, the
// tests (vite.config.ts) and the layer rule (layerOrder.js) all resolve the names with. The built
// files those names reach are package.json's `exports` (tsup.config.ts builds them from the same
// entry files; test/docs/docs.api.test.ts checks that the lists agree).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The package's own name, as src/ imports it (`conversation-memory`, `conversation-memory/node`). */
export const PACKAGE_NAME = 'conversation-memory';

/** Whether a module name is the package's own name or one of its subpaths. */
export const isPackageName = (name) => name === PACKAGE_NAME || name.startsWith(`${PACKAGE_NAME}/`);

/**
 * The entry file of each import name of the package, absolute.
 *
 * @param {string} root - the project folder (with tsconfig.json; plain JSON, no comments)
 * @returns {Map<string, string>} `conversation-memory/store-kit` → `<root>/src/entries/storeKit.ts`, …
 */
export const packageEntries = (root) => {
  const file = join(root, 'tsconfig.json');
  let paths;
  try {
    paths = JSON.parse(readFileSync(file, 'utf8')).compilerOptions?.paths ?? {};
  } catch (error) {
    throw new Error(`${file} could not be read as JSON: ${error.message}`, { cause: error });
  }
  return new Map(
    Object.entries(paths)
      .filter(([name]) => isPackageName(name))
      .map(([name, [target]]) => [name, resolve(root, target)]),
  );
};
