/**
 * Bundles `aiSdkChatPage.ts` (React, `@ai-sdk/react`, `ai`) for the browser with esbuild, as an
 * application's bundler would, and gives the HTML page that loads it.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's script and its HTML, for `startAiSdkChatServer({ page })`. */
export interface ChatPage {
  readonly html: string;
  readonly script: string;
}

/**
 * Builds the chat page (production React, minified off so a failure's stack reads).
 *
 * @returns the HTML (it loads `/app.js`) and the script
 */
export const buildChatPage = async (): Promise<ChatPage> => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./aiSdkChatPage.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error('esbuild wrote no chat page');
  const html =
    '<!doctype html><meta charset="utf-8"><title>chat</title>' +
    '<div id="root"></div><script type="module" src="/app.js"></script>';
  return { html, script };
};
