// `npm run inspect -- FILE [options]` (in a clone of the repository): the `conversation-memory
// inspect` command run from the sources with tsx, as `npx conversation-memory inspect FILE` runs
// the built one in an app that installed the package. With `--html`, the page is built first
// from src/inspector/page/ (as `npm run build:page` does, about 2 s), so it is never stale.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

if (args.some((arg) => arg === '--html' || arg.startsWith('--html='))) {
  const { build } = await import('vite');
  await build({ configFile: `${root}vite.inspector.config.ts`, logLevel: 'warn' });
}
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const run = spawnSync(process.execPath, [tsx, `${root}src/cli/main.ts`, 'inspect', ...args], {
  stdio: 'inherit',
});
process.exitCode = run.status ?? 1;
