// The event log functions are on the browser path (a chat UI records its actions): bundling them
// must not pull in a decoder (io-ts, fp-ts) or a Node built-in. decodeAction is io-ts; the checks
// appendAction makes of an action are plain functions (src/log/recordAction.ts).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

it('bundles createEventLog, appendAction, replay, seek, fork, timeline and logActions without io-ts or fp-ts', async () => {
  const result = await build({
    stdin: {
      contents:
        "export { createEventLog, appendAction, replay, seek, fork, timeline, logActions } from './src/log/eventLog';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs).toContain('src/log/recordAction.ts');
  expect(inputs.filter((input) => /node_modules\/(io-ts|fp-ts)\/|^node:/.test(input))).toEqual([]);
});
