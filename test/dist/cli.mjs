// The `conversation-memory` bin as users get it: `npm pack`, the tarball installed in an empty
// project (its dependencies from the npm cache), then `npx conversation-memory inspect` run there
// on a reference sample, on a file that is not JSON and on a SQLite file; `--version` answered
// from the packed package; then every `npx conversation-memory …` command README.md and docs/
// print, as written (found by test/support/docCommands.ts), with `log.json` standing for the
// app's recorded conversation. Run after `npm run build`.
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// tsx's scoped import: the docs' commands are read by the TypeScript helper the docs tests use,
// and nothing else in this process (nor the CLI it starts) is compiled by tsx.
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-cli-'));
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
  );
  const tarball = path.join(work, packed[0].filename);
  assert.ok(packed[0].files.some((f) => f.path === 'dist/cli.js'), 'dist/cli.js is in the package');
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), '{"name": "cli-check", "private": true}');
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    { cwd: project, stdio: 'pipe' },
  );
  const sample = path.join(root, 'test/fixtures/reference/memory-tools-summary.json');
  const before = fs.readFileSync(sample);
  const run = (args) =>
    spawnSync('npx', ['--no-install', 'conversation-memory', ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });

  const timeline = run(['inspect', sample]);
  assert.equal(timeline.status, 0, timeline.stderr);
  assert.match(timeline.stdout, /memory-tools-summary\.json: toDict memory, no actions \(step 0 only\); maxMessages 8, maxTokens 200, tokenizer o200k_base/);
  // --version: the packed package's version, read by plain node from dist/cli.js alone.
  const installed = JSON.parse(
    fs.readFileSync(path.join(project, 'node_modules/conversation-memory/package.json'), 'utf8'),
  );
  const version = run(['--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout, `conversation-memory ${installed.version}\n`);
  const direct = spawnSync(
    process.execPath,
    [path.join(project, 'node_modules/conversation-memory/dist/cli.js'), '--version'],
    { encoding: 'utf8' },
  );
  assert.equal(direct.stdout, version.stdout, direct.stderr);
  const at = run(['inspect', sample, '--at', '0', '--json']);
  assert.equal(at.status, 0, at.stderr);
  const view = JSON.parse(at.stdout).window;
  assert.equal(view.entries[0].message.content, '[Conversation Summary] The user is planning a trip to France and Japan.');
  assert.deepEqual(view.entries.slice(1).map((e) => e.position), [0, 1, 2, 3, 4, 5]);

  const broken = path.join(work, 'broken.json');
  fs.writeFileSync(broken, '{"schema": "conversation-memory", "vers');
  const bad = run(['inspect', broken]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^conversation-memory inspect: .*broken\.json: \(root\): not JSON \(truncated\?\): .*\n$/);
  const usage = run(['inspect', sample, '--nope']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /Usage: conversation-memory inspect FILE/);
  const typo = run(['inspect', sample, '--htm', path.join(work, 'x.html')]);
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /unknown option "--htm" \(did you mean --html\?\)/);
  // A SQLite file (its header, whatever its name): how to export a stream, not a JSON error.
  const db = path.join(work, 'store.db');
  fs.writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080)]));
  const sqlite = run(['inspect', db]);
  assert.equal(sqlite.status, 1);
  assert.match(sqlite.stderr, /store\.db: a SQLite database, not a JSON file/);
  assert.match(sqlite.stderr, /exportEventLog\(store, 'thread-7'\)/);
  // --html: the page is carried inside dist/cli.js, its data embedded where the page reads it.
  const page = path.join(work, 'page.html');
  const html = run(['inspect', sample, '--html', page]);
  assert.equal(html.status, 0, html.stderr);
  assert.match(html.stdout, /^wrote .*page\.html: the inspector page, no actions \(step 0 only\)\n$/);
  const written = fs.readFileSync(page, 'utf8');
  assert.ok(written.startsWith('<!doctype html>'));
  assert.ok(!/<script[^>]+src=|<link[^>]+href=/i.test(written), 'nothing loaded from outside');
  const data = JSON.parse(
    written.match(/<script id="inspector-data" type="application\/json">([^<]*)<\/script>/)[1],
  );
  assert.equal(data.kind, 'dict');
  assert.equal(data.rows.length, 1);
  const over = run(['inspect', sample, '--html', sample]);
  assert.equal(over.status, 1);
  assert.match(over.stderr, /is the input file: not written over/);
  assert.deepEqual(fs.readFileSync(sample), before, 'the input file is unchanged');

  // The docs' commands for an app that installed the package, as written, in that app.
  const { commandsOfKind, outputsOf, whereOf } = await tsImport(
    '../support/docCommands.ts',
    import.meta.url,
  );
  fs.copyFileSync(path.join(root, 'docs/example-log.json'), path.join(project, 'log.json'));
  // `npm install conversation-memory` is what the tarball's install above stands for.
  const printed = commandsOfKind('installed').filter(
    (command) => command.text !== 'npm install conversation-memory',
  );
  assert.ok(printed.length >= 5, 'the docs print the installed commands');
  const outputs = printed.flatMap((command) => outputsOf(command.text));
  for (const file of outputs) fs.rmSync(path.join(project, file), { force: true });
  // Two at a time (each is mostly npx starting): they read log.json and write distinct files.
  const runCommand = promisify(execFile);
  const queue = [...printed];
  const worker = async () => {
    for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
      await runCommand('sh', ['-c', command.text], {
        cwd: project,
        env: { ...process.env, NO_COLOR: '1' },
      }).catch((error) => {
        throw new Error(`${whereOf(command)}: exit ${error.code}\n${error.stderr}`);
      });
    }
  };
  await Promise.all([worker(), worker()]);
  for (const file of outputs)
    assert.ok(fs.existsSync(path.join(project, file)), `${file} not written`);
  console.log(
    `cli: npx conversation-memory inspect (and --html) works from the packed package, and the ${printed.length} installed-package commands the docs print`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
