/**
 * The browser build's module swaps, one esbuild plugin shared by tsup.config.ts (which builds
 * `dist/library.browser.*`, behind the `"browser"` export condition of every browser-safe entry)
 * and the tests that bundle the source as that build does (test/tokens/tokens.browserBuild.test.ts).
 *
 * - src/tokens/encodingLoader.ts is replaced by its `.browser.ts` twin, which loads no encoding.
 *   Bundlers emit a chunk for every `import()` they see, reachable or not (esbuild and webpack do;
 *   Rollup and Rolldown drop unreachable ones), so the encodings must be absent from the file for
 *   a page that counts with 'heuristic' to deploy none of them. A page that counts with an
 *   encoding loads it with `conversation-memory/encodings`.
 * - The redundancy planner (`prune: 'redundant'`) is not carried either: a page that prunes by
 *   redundancy installs it with `enableRedundantPruning()` (conversation-memory/pruning).
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

export const browserTwins: Plugin = {
  name: 'browser-twins',
  setup(build) {
    // By the file's name from any folder (`./encodingLoader`, `../tokens/encodingLoader`): an
    // import that missed the swap would put every encoding back into the browser build.
    build.onResolve({ filter: /(^|\/)encodingLoader$/ }, () => ({
      path: fileURLToPath(new URL('../src/tokens/encodingLoader.browser.ts', import.meta.url)),
    }));
    build.onResolve({ filter: /(^|\/)plannerLoader$/ }, () => ({
      path: fileURLToPath(
        new URL('../src/internal/redundancy/plannerLoader.browser.ts', import.meta.url),
      ),
    }));
  },
};
