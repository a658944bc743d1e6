/**
 * The first error a browser app gets for the default tokenizer says where `loadTokenizer` lives
 * for browsers (issue #27 §10). The source is bundled as tsup builds the browser build (the same
 * module swaps, scripts/browserTwins.ts, `platform: 'browser'`) and as the Node build (no swap),
 * each app run in a child process without `process.getBuiltinModule` (what makes a runtime
 * browser-like for this library). In the browser build, every error that tells to call
 * `loadTokenizer` names `conversation-memory/encodings` and its import line, and doing what the
 * first one says works; the Node build's root `loadTokenizer` loads encodings itself, so its
 * errors say only to call it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { browserTwins } from '../../scripts/browserTwins';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cm-browser-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The package's names, resolved to the source as the built entries are to dist/. */
const alias = {
  'conversation-memory': join(root, 'src/entries/index.ts'),
  'conversation-memory/tokens': join(root, 'src/entries/tokens.ts'),
  'conversation-memory/encodings': join(root, 'src/entries/encodings.ts'),
};

/**
 * Every public way to reach an encoding that is not loaded, each error's message; then the
 * first message's advice, followed as written: the import it quotes, and the call.
 */
const app = `
  import { addMessage, createMemory, fromDict, userMessage } from 'conversation-memory';
  import {
    countMessageTokens,
    estimateTokens,
    loadTokenizer as tokensLoadTokenizer,
  } from 'conversation-memory/tokens';
  const out = {};
  const message = (run) => { try { run(); return 'no error'; } catch (error) { return error.message; } };
  out.createMemory = message(() => createMemory());
  out.createMemoryCl100k = message(() => createMemory({ tokenizer: 'cl100k_base' }));
  const loaded = fromDict({ max_messages: 2, messages: [] });
  out.fromDict = loaded._tag === 'Left' ? loaded.left.problems[0] : 'no error';
  out.estimateTokens = message(() => estimateTokens('hi', 'gpt-4o'));
  out.countMessageTokens = message(() => countMessageTokens('o200k_base', userMessage('hi')));
  out.tokensLoadTokenizer = await tokensLoadTokenizer('o200k_base').then(() => 'loaded', (error) => error.message);
  // The import line the first error quotes, then that import (a bundler needs its name written
  // out, as an app writes it) and the call.
  const line = /\`(import \\{ loadTokenizer \\} from '([^']+)';)\`/.exec(out.createMemory);
  out.quotedImport = line?.[1] ?? null;
  if (line?.[2] === 'conversation-memory/encodings') {
    const { loadTokenizer } = await import('conversation-memory/encodings');
    await loadTokenizer('o200k_base');
    out.afterAdvice = addMessage(createMemory(), userMessage('Hello, world!')).state.totalTokens;
  }
  console.log(JSON.stringify(out));
`;

/** Bundles the app from the source (browser or Node build) and runs it browser-like. */
const run = async (platform: 'browser' | 'node'): Promise<Record<string, unknown>> => {
  const dir = join(work, platform);
  const entry = join(work, `app-${platform}.mjs`);
  writeFileSync(entry, app);
  await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    alias,
    nodePaths: [join(root, 'node_modules')],
    plugins: platform === 'browser' ? [browserTwins] : [],
    logLevel: 'error',
  });
  const output = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `delete process.getBuiltinModule; await import(${JSON.stringify(join(dir, `app-${platform}.mjs`))});`,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as Record<string, unknown>;
};

const IMPORT_LINE = "`import { loadTokenizer } from 'conversation-memory/encodings';`";
const ADVICE = (name: string): string =>
  `call \`await loadTokenizer("${name}")\` imported from conversation-memory/encodings (${IMPORT_LINE}): the browser build keeps the encodings there, not in conversation-memory/tokens`;

describe('the default tokenizer in a browser: the first error names conversation-memory/encodings', () => {
  it('browser build: every error names the entry and its import line; following the first works', async () => {
    const out = await run('browser');
    expect(out).toEqual({
      createMemory: `[conversation-memory] createMemory: tokenizer must be loaded first in this runtime: ${ADVICE('o200k_base')}`,
      createMemoryCl100k: `[conversation-memory] createMemory: tokenizer must be loaded first in this runtime: ${ADVICE('cl100k_base')}`,
      fromDict: `tokenizer (the default) must be loaded first in this runtime: ${ADVICE('o200k_base')}`,
      estimateTokens: `[conversation-memory] estimateTokens: the "o200k_base" encoding is not loaded and this runtime cannot load it synchronously; before using it, ${ADVICE('o200k_base')}`,
      countMessageTokens: expect.stringContaining(ADVICE('o200k_base')),
      tokensLoadTokenizer: expect.stringContaining(
        "import { loadTokenizer } from 'conversation-memory/encodings'",
      ),
      quotedImport: "import { loadTokenizer } from 'conversation-memory/encodings';",
      afterAdvice: 4,
    });
  });

  it('Node build: the root loadTokenizer loads encodings, so its errors say only to call it', async () => {
    const out = await run('node');
    expect(out['createMemory']).toBe(
      '[conversation-memory] createMemory: tokenizer must be loaded first in this runtime: call `await loadTokenizer("o200k_base")`',
    );
    expect(out['estimateTokens']).toBe(
      '[conversation-memory] estimateTokens: the "o200k_base" encoding is not loaded and this runtime cannot load it synchronously; before using it, call `await loadTokenizer("o200k_base")`',
    );
    // The root entry's own loadTokenizer does load it here.
    expect(out['tokensLoadTokenizer']).toBe('loaded');
  });
});
