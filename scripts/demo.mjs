// `npm run demo` (in a clone of the repository): examples/demo.ts, then
// examples/knowledgeAcrossSessions.ts, each with tsx. The arguments after `--` go to the first,
// whose options they are (`npm run demo -- --log demo-log.json` writes its event log); a script of
// `tsx a.ts && tsx b.ts` would hand them to the second, which ignores them.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

for (const [file, args] of [
  ['examples/demo.ts', process.argv.slice(2)],
  ['examples/knowledgeAcrossSessions.ts', []],
]) {
  const run = spawnSync(process.execPath, [tsx, file, ...args], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    process.exitCode = run.status ?? 1;
    break;
  }
}
