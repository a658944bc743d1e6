// Bundles a small consumer of the built package the way applications do, then runs it:
// - for the browser: the root entry must bundle without any Node built-in, and the encodings
//   must arrive as code-split chunks that `loadTokenizer` loads;
// - for a Node server bundled into a folder without node_modules: the synchronous loader cannot
//   find gpt-tokenizer, so the memory must say "call loadTokenizer" (not crash), and after
//   `await loadTokenizer(...)` count with the bundled chunk.
// The browser bundle is run under Node with `process.getBuiltinModule` removed, which is what
// makes a runtime browser-like for this library.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const consumer = `
  import { addMessage, createMemory, loadTokenizer, userMessage } from 'conversation-memory';
  const out = [];
  try { createMemory(); out.push('created without loading'); } catch (error) { out.push(error.code); }
  await loadTokenizer('o200k_base');
  out.push(addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens);
  console.log(JSON.stringify(out));
`;

const work = mkdtempSync(join(tmpdir(), 'cm-bundles-'));
const entry = join(work, 'consumer.mjs');
const root = fileURLToPath(new URL('../../', import.meta.url));
try {
  writeFileSync(entry, consumer);
  for (const platform of ['browser', 'node']) {
    const outdir = join(work, platform);
    await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform,
      outdir,
      outExtension: { '.js': '.mjs' },
      // 'conversation-memory' is this build; its own dependencies come from this package's
      // node_modules, as they would from an application's.
      alias: { 'conversation-memory': join(root, 'dist', 'index.js') },
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'error',
    });
    const chunks = readdirSync(outdir);
    assert.ok(chunks.length >= 3, `${platform}: encodings should be separate chunks, got ${chunks}`);
    const prelude = platform === 'browser' ? 'delete process.getBuiltinModule;' : '';
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `${prelude} await import(${JSON.stringify(join(outdir, 'consumer.mjs'))});`],
      { cwd: work, encoding: 'utf8' },
    );
    assert.deepEqual(JSON.parse(output), ['CM_CONFIG', 4], `${platform} bundle`);
  }
  console.log('browser and node bundles: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
