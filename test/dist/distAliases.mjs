// esbuild aliases that resolve `conversation-memory` and each of its subpaths to this build's
// ESM file, read from package.json's exports map, so a bundled consumer imports exactly what
// users install.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} root - the package root (with a built dist/)
 * @returns {Record<string, string>} alias map for esbuild's `alias`
 */
export const distAliases = (root) => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const aliases = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== 'object') continue;
    const name = subpath === '.' ? 'conversation-memory' : `conversation-memory${subpath.slice(1)}`;
    aliases[name] = join(root, target.import.default);
  }
  return aliases;
};
