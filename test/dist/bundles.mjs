// Bundles a small consumer of the built package the way applications do, then runs it:
// - for the browser: the root entry must bundle without any Node built-in, and the encodings
//   must arrive as code-split chunks that `loadTokenizer` loads;
// - for a Node server bundled into a folder without node_modules: the synchronous loader cannot
//   find gpt-tokenizer, so the memory must say "call loadTokenizer" (not crash), and after
//   `await loadTokenizer(...)` count with the bundled chunk.
// - the same Node server bundle, and one in CommonJS format, retry a failed synchronous load: after
//   a `node_modules/gpt-tokenizer` link appears beside the bundle, the same process counts without
//   loadTokenizer (the failure is not remembered, and Node does not cache a failed resolution).
// - through the package's exports with the "browser" condition, as a browser app's bundler
//   resolves it: the root entry's browser build loads no encoding (so an app that counts with
//   'heuristic' emits one file), and `conversation-memory/encodings` loads them for the others.
// The browser bundles are run under Node with `process.getBuiltinModule` removed, which is what
// makes a runtime browser-like for this library.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { distAliases } from './distAliases.mjs';

const consumer = `
  import { addMessage, createMemory, userMessage } from 'conversation-memory';
  import { loadTokenizer } from 'conversation-memory/tokens';
  const out = [];
  try { createMemory(); out.push('created without loading'); } catch (error) { out.push(error.code); }
  await loadTokenizer('o200k_base');
  out.push(addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens);
  console.log(JSON.stringify(out));
`;

// Counts once (no node_modules beside the bundle yet), links gpt-tokenizer beside the bundle,
// counts again in the same process. No top-level await, so that it also bundles as CommonJS.
const retrying = `
  import { mkdirSync, symlinkSync } from 'node:fs';
  import { dirname, join } from 'node:path';
  import { addMessage, createMemory, userMessage } from 'conversation-memory';
  const count = () => {
    try { return addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens; }
    catch (error) { return error.code; }
  };
  const out = [count()];
  mkdirSync(join(process.env.BUNDLE_DIR, 'node_modules'));
  symlinkSync(process.env.GPT_TOKENIZER, join(process.env.BUNDLE_DIR, 'node_modules', 'gpt-tokenizer'), 'dir');
  out.push(count());
  console.log(JSON.stringify(out));
`;

// Browser apps, bundled through the package's "browser" export condition.
const browserApps = {
  // Counts with 'heuristic': one file, no encoding chunk, nothing to load.
  heuristic: {
    code: `
      import { addMessage, createMemory, userMessage } from 'conversation-memory';
      const memory = createMemory({ tokenizer: 'heuristic' });
      console.log(JSON.stringify([addMessage(memory, userMessage('Hello, world!')).state.totalTokens]));
    `,
    expected: [3],
    files: 1,
  },
  // Counts with the default o200k and with cl100k: createMemory's first error and
  // conversation-memory/tokens' loadTokenizer say where to load them; the encodings subpath's
  // loads each table as a chunk (plus one shared chunk).
  encodings: {
    code: `
      import { addMessage, createMemory, userMessage } from 'conversation-memory';
      import { loadTokenizer as rootLoadTokenizer } from 'conversation-memory/tokens';
      import { loadTokenizer } from 'conversation-memory/encodings';
      const out = [];
      // The first error names the entry that has the encodings, with the import line.
      try { createMemory(); out.push('created without loading'); }
      catch (error) { out.push(error.code, error.message.includes("\`import { loadTokenizer } from 'conversation-memory/encodings';\`")); }
      try { await rootLoadTokenizer('o200k_base'); out.push('loaded by the root entry'); }
      catch (error) { out.push(error.code, error.message.includes("from 'conversation-memory/encodings'")); }
      await loadTokenizer('o200k_base');
      out.push(addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens);
      await loadTokenizer('cl100k_base');
      out.push(addMessage(createMemory({ tokenizer: 'cl100k_base' }), userMessage('Hello, world!')).state.totalTokens);
      await rootLoadTokenizer('o200k_base');
      out.push('root entry resolves once loaded');
      console.log(JSON.stringify(out));
    `,
    expected: ['CM_CONFIG', true, 'CM_TOKENIZER', true, 4, 4, 'root entry resolves once loaded'],
    files: 4,
  },
};

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
      alias: distAliases(root),
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

  const retryEntry = join(work, 'retrying.mjs');
  writeFileSync(retryEntry, retrying);
  const gptTokenizer = dirname(createRequire(join(root, 'package.json')).resolve('gpt-tokenizer/package.json'));
  for (const format of ['esm', 'cjs']) {
    const outdir = join(work, `retry-${format}`);
    const outfile = join(outdir, format === 'esm' ? 'retrying.mjs' : 'retrying.cjs');
    await build({
      entryPoints: [retryEntry],
      bundle: true,
      format,
      platform: 'node',
      outfile,
      alias: distAliases(root),
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'error',
    });
    const output = execFileSync(process.execPath, [outfile], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, BUNDLE_DIR: outdir, GPT_TOKENIZER: gptTokenizer },
    });
    assert.deepEqual(JSON.parse(output), ['CM_CONFIG', 4], `${format} bundle, retried`);
  }
  // The browser condition, resolved through package.json's exports from the app's node_modules.
  const app = join(work, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(root, join(app, 'node_modules', 'conversation-memory'), 'dir');
  for (const [name, { code, expected, files }] of Object.entries(browserApps)) {
    const appEntry = join(app, `${name}.mjs`);
    writeFileSync(appEntry, code);
    const outdir = join(app, `${name}-out`);
    await build({
      entryPoints: [appEntry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir,
      outExtension: { '.js': '.mjs' },
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'error',
    });
    const emitted = readdirSync(outdir);
    assert.equal(emitted.length, files, `${name}: emitted ${emitted}`);
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `delete process.getBuiltinModule; await import(${JSON.stringify(join(outdir, `${name}.mjs`))});`],
      { cwd: work, encoding: 'utf8' },
    );
    assert.deepEqual(JSON.parse(output), expected, `${name}: browser-condition bundle`);
  }
  console.log('browser and node bundles: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
