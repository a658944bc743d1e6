/**
 * Builds the inspector page (src/inspector/page/) into ONE self-contained HTML file,
 * build/inspector/index.html: its script and its CSS are inlined, nothing is fetched. tsup then
 * embeds that file in dist/cli.js (see tsup.config.ts), and `inspect --html` fills its data slot.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./src/inspector/page/', import.meta.url));

/** The page never loads a gpt-tokenizer table (the CLI embeds the counts it needs). */
const noEncodings: Plugin = {
  name: 'inspector-no-encodings',
  enforce: 'pre',
  resolveId: (id) => (id.startsWith('gpt-tokenizer/encoding/') ? `\0no-encoding:${id}` : null),
  load: (id) =>
    id.startsWith('\0no-encoding:')
      ? 'export const countTokens = () => { throw new Error("the inspector page carries no gpt-tokenizer table"); };'
      : null,
};

/** Text that would end or confuse an inline `<script>`/`<style>` element. */
const UNSAFE = /<\/(script|style)|<!--/i;

/** Puts the built script and stylesheet into the HTML itself, and drops the files. */
const inlineEverything: Plugin = {
  name: 'inspector-inline',
  enforce: 'post',
  generateBundle(_options, bundle) {
    const html = Object.values(bundle).find(
      (file) => file.type === 'asset' && file.fileName.endsWith('.html'),
    );
    if (html === undefined || html.type !== 'asset') throw new Error('no HTML in the page build');
    let text = String(html.source);
    for (const [name, file] of Object.entries(bundle)) {
      if (file === html) continue;
      const code = file.type === 'chunk' ? file.code : String(file.source);
      if (UNSAFE.test(code)) throw new Error(`${name} holds text that cannot be inlined`);
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (name.endsWith('.js')) {
        const tag = new RegExp(`<script([^>]*) src="[^"]*${escaped}"([^>]*)></script>`);
        if (!tag.test(text)) throw new Error(`no <script> for ${name}`);
        text = text.replace(tag, () => `<script type="module">${code}</script>`);
      } else if (name.endsWith('.css')) {
        const tag = new RegExp(`<link[^>]* href="[^"]*${escaped}"[^>]*>`);
        if (!tag.test(text)) throw new Error(`no <link> for ${name}`);
        text = text.replace(tag, () => `<style>${code}</style>`);
      } else throw new Error(`unexpected file in the page build: ${name}`);
      Reflect.deleteProperty(bundle, name);
    }
    html.source = text;
  },
};

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  plugins: [noEncodings, inlineEverything],
  resolve: {
    alias: [
      {
        find: /^conversation-memory$/,
        replacement: fileURLToPath(new URL('./src/entries/index.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./build/inspector/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    modulePreload: false,
    reportCompressedSize: false,
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
