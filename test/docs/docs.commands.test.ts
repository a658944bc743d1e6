import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDistinctArgs } from '../../bench/pruning/distinctArgs';
import {
  commandsOfKind,
  docCommands,
  outputsOf,
  ruleOf,
  whereOf,
  type DocCommand,
} from '../support/docCommands';
import { rootDir } from '../support/markdown';

/**
 * Every command README.md and docs/ print works as written (the kinds: test/support/docCommands.ts).
 * The clone's commands run here, in reading order, in a fresh copy of the checkout: its files as
 * git lists them (tracked, and new ones not ignored; no dist/, no build/), with the checkout's
 * node_modules linked in place of `npm install`. A command must exit 0 and write each file its
 * output options name (`--log demo-log.json`). The installed package's commands run in
 * test/dist/cli.mjs, after the build; long-running ones are checked without running them.
 */
const scripts = (
  JSON.parse(readFileSync(`${rootDir}package.json`, 'utf8')) as {
    scripts: Readonly<Record<string, string>>;
  }
).scripts;

/** The parsers of the arguments the docs give a long-running script (after `--`), by name. */
const ARGUMENT_PARSERS: Readonly<Record<string, (args: readonly string[]) => unknown>> = {
  'bench:pruning': parseDistinctArgs,
};

/** The files an npm script names (`tsx bench/addMessage.bench.ts`), and the scripts it runs. */
const namedBy = (script: string): { files: string[]; scripts: string[] } => ({
  files: script.split(/\s+/).filter((word) => /^[\w./-]+\.(m?[jt]s|c[jt]s|json)$/.test(word)),
  scripts: [...script.matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1] ?? ''),
});

/** What is wrong with a long-running command: a missing script or file, arguments that do not parse. */
const problemsOfLong = (command: DocCommand): string[] => {
  const [, name = '', args = ''] =
    /^npm (?:run )?([\w:-]+)(?: (?:-- )?(.*))?$/.exec(command.text) ??
    /^npx tsx (\S+)(?: (.*))?$/.exec(command.text) ??
    [];
  const problems: string[] = [];
  if (command.text.startsWith('npx tsx ')) {
    if (!existsSync(`${rootDir}${name}`)) problems.push(`no file ${name}`);
  } else {
    const seen = new Set<string>();
    const visit = (script: string): void => {
      if (seen.has(script)) return;
      seen.add(script);
      const text = scripts[script];
      if (text === undefined) {
        problems.push(`no npm script "${script}"`);
        return;
      }
      const named = namedBy(text);
      for (const file of named.files)
        if (!existsSync(`${rootDir}${file}`))
          problems.push(`"${script}" names ${file}: no such file`);
      named.scripts.forEach(visit);
    };
    visit(name);
  }
  if (args !== '') {
    const parse = ARGUMENT_PARSERS[name];
    if (parse === undefined) problems.push(`no parser for the arguments of ${name}`);
    else {
      try {
        parse(args.split(' '));
      } catch (error) {
        problems.push(String(error));
      }
    }
  }
  return problems.map((problem) => `${whereOf(command)}: ${problem}`);
};

describe('docs commands', () => {
  it('every command the docs print has a kind', () => {
    const commands = docCommands();
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((command) => ruleOf(command.text) === undefined).map(whereOf)).toEqual(
      [],
    );
    for (const kind of ['clone', 'installed', 'long'] as const)
      expect(commandsOfKind(kind).length, kind).toBeGreaterThan(0);
  });

  it('long-running commands name scripts and files that exist, and arguments that parse', () => {
    expect(commandsOfKind('long').flatMap(problemsOfLong)).toEqual([]);
    // The check can fail: a missing script, a missing file, arguments that do not parse.
    expect(
      ['npm run bench:nope', 'npx tsx bench/nope.ts', 'npm run bench:pruning -- 200 x'].map(
        (text) => problemsOfLong({ file: 'x.md', line: 1, text }).length,
      ),
    ).toEqual([1, 1, 1]);
  });

  describe.skipIf(process.env['TEST_DIST'] === '1')('in a fresh clone', () => {
    let clone = '';
    beforeAll(() => {
      clone = mkdtempSync(join(tmpdir(), 'cm-clone-'));
      const listed = spawnSync(
        'git',
        ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
        { cwd: rootDir, encoding: 'utf8' },
      );
      if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
      for (const file of listed.stdout.split('\0')) {
        if (file === '' || !existsSync(`${rootDir}${file}`)) continue; // deleted, not yet committed
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(`${rootDir}${file}`, join(clone, file));
      }
      symlinkSync(`${rootDir}node_modules`, join(clone, 'node_modules'), 'dir');
    });
    afterAll(() => rmSync(clone, { recursive: true, force: true }));

    it.each(commandsOfKind('clone').map((command) => [whereOf(command), command] as const))(
      '%s',
      (_where, command) => {
        const outputs = outputsOf(command.text);
        for (const file of outputs) rmSync(join(clone, file), { force: true });
        const run = spawnSync('sh', ['-c', command.text], {
          cwd: clone,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
          timeout: 50_000,
        });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
        expect(outputs.filter((file) => !existsSync(join(clone, file)))).toEqual([]);
      },
    );
  });
});
