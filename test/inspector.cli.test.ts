/**
 * The `conversation-memory inspect` CLI, run from source as a user runs it (a child process), on
 * every input kind, corrupt inputs, usage errors, colours and NO_COLOR.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEnvelope, ENVELOPE_VERSION, toDict } from 'conversation-memory';
import { timelineRows, windowAt } from '../src/inspector/model';
import { recordedLog } from './support/inspectorLog';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const main = join(root, 'src/inspector/cli/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'cm-inspect-'));
const log = recordedLog();
const state = log.head;

const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};

const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const touched: string[] = [];
const hashes = new Map<string, [string, number]>();

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const inherited: NodeJS.ProcessEnv = { ...process.env };
delete inherited['NO_COLOR'];

/** Runs the CLI from source in a child process (concurrently with the other tests). */
const inspect = (args: readonly string[]): Promise<Run> => {
  for (const arg of args) {
    if (existsSync(arg) && statSync(arg).isFile()) {
      if (!hashes.has(arg)) hashes.set(arg, [hash(arg), statSync(arg).mtimeMs]);
      touched.push(arg);
    }
  }
  return new Promise((resolve) => {
    execFile(
      tsx,
      [main, ...args],
      { cwd: root, encoding: 'utf8', env: inherited, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
};

const logFile = file('log.json', encodeEnvelope(log));
const ESC = '\u001b[';

afterAll(() => {
  // Nothing is ever written over an input file.
  for (const path of new Set(touched)) {
    expect([hash(path), statSync(path).mtimeMs]).toEqual(hashes.get(path));
  }
});

describe.concurrent('inspect: the timeline', () => {
  it('prints a header and one line per step: action, window, tokens, trims by rule, summary', async () => {
    const { code, stdout, stderr } = await inspect(['inspect', logFile]);
    expect([code, stderr]).toEqual([0, '']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `${logFile}: event log, 17 steps; maxMessages 5, maxTokens 40, tokenizer heuristic, toolPairs strict, pinSystem, startOn user`,
    );
    expect(lines).toHaveLength(2 + 17);
    expect(lines[2]).toMatch(/^ {3}0 {2}start +0\/5 +0\/40$/);
    expect(lines[2 + 6]).toMatch(
      /^ {3}6 {2}add tool\(c1\) "Paris: 18°C, cloudy" +4\/5 +14\/40 {2}trimmed 2 \(messageLimit 1, startOn 1\)$/,
    );
    expect(lines[2 + 8]).toMatch(
      /summary applied .* 5\/5 +19\/40 {2}summary: "The user is Alice."$/,
    );
    expect(lines[2 + 10]).toContain('trimmed 3 (tokenLimit 3)');
    expect(lines[2 + 15]).toContain('trimmed 2 (toolPairBoundary 2)');
    // A hostile message stays on its line, its escape sequence shown, not sent to the terminal.
    expect(lines[2 + 16]).toContain('"<img src=x onerror=alert(1)>\\u001b[31…');
    expect(stdout).not.toContain(ESC);
  });

  it('--json prints the same rows as data', async () => {
    const { code, stdout } = await inspect(['inspect', logFile, '--json']);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed).toMatchObject({ file: logFile, kind: 'log', session: null });
    expect(parsed.config).toEqual(state.config);
    expect(parsed.rows).toEqual(JSON.parse(JSON.stringify(timelineRows(log))));
  });
});

describe.concurrent('inspect --at N', () => {
  it('prints the window as the model receives it: injected summary, pinned message, tool group, trims', async () => {
    const { code, stdout } = await inspect(['inspect', logFile, '--at', '9']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n').slice(1);
    expect(lines).toEqual([
      'step 9 of 16: add 3 messages',
      'window 4/5 messages, 12/40 tokens (+10 injected summary)',
      '   pos  tokens  mark              message',
      '     -      10  summary           system "[Conversation Summary] The user is Alice."',
      '    #0       6  pinned            system "You are a travel assistant."',
      '    #7       2                    user "And Kyoto?"',
      '    #8       0  ┌ group 8         assistant → get_weather(c2)',
      '    #9       4  └ group 8         tool(c2) "Kyoto: 24°C, sunny"',
      'trimmed at this step: 4 (messageLimit 3, startOn 1)',
      '    #3       4  messageLimit      user "Weather in Paris?"',
      '    #4       0  messageLimit      assistant → get_weather(c1)',
      '    #5       4  messageLimit      tool(c1) "Paris: 18°C, cloudy"',
      '    #6       5  startOn           assistant "It is 18°C in Paris."',
    ]);
  });

  it('--at N --json prints the window as data', async () => {
    const { code, stdout } = await inspect(['inspect', logFile, '--json', '--at=15']);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.window).toEqual(JSON.parse(JSON.stringify(windowAt(log, 15))));
    expect(parsed.window.trimmed.map((t: { rule: string }) => t.rule)).toEqual([
      'toolPairBoundary',
      'toolPairBoundary',
    ]);
  });
});

describe.concurrent('inspect: every input kind', () => {
  const session = {
    session_id: 'thread-7',
    namespace: 'user-42',
    created_at: 1764500000.25,
    updated_at: 1764500100.5,
    memory: toDict(state),
    revision: 2,
  };
  const cases: [string, string, string][] = [
    [file('state.json', encodeEnvelope(state)), 'state (envelope)', ''],
    [file('raw.json', state), 'raw state', ''],
    [file('session.json', session), 'session file thread-7 (namespace user-42), revision 2', ''],
    ...['memory-images.json', 'memory-over-limit.json', 'memory-tools-summary.json'].map(
      (name): [string, string, string] => [
        join(root, 'test/fixtures/reference', name),
        'toDict memory',
        '',
      ],
    ),
  ];

  it.each(cases)('%s reads as a one-step timeline (%s)', async (path, kind) => {
    const { code, stdout, stderr } = await inspect(['inspect', path]);
    expect([code, stderr]).toEqual([0, '']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toContain(`${path}: ${kind}, 1 step;`);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^ {3}0 {2}start/);
  });

  it('--at 0 --json of a session file gives its header and its only window', async () => {
    const { code, stdout } = await inspect([
      'inspect',
      join(dir, 'session.json'),
      '--at',
      '0',
      '--json',
    ]);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.session).toEqual({
      sessionId: 'thread-7',
      namespace: 'user-42',
      createdAt: 1764500000.25,
      updatedAt: 1764500100.5,
      revision: 2,
    });
    expect(parsed.window.row.step).toBe(0);
    expect(parsed.window.entries[0].message.content).toBe(
      '[Conversation Summary] The user is Alice.',
    );
  });

  it('the reference sample with a summary shows it injected, with its tool group', async () => {
    const path = join(root, 'test/fixtures/reference/memory-tools-summary.json');
    const { stdout } = await inspect(['inspect', path, '--at', '0']);
    expect(stdout).toContain(
      '     -      15  summary           system "[Conversation Summary] The user is planning a trip to France and Japan."',
    );
    expect(stdout).toContain(
      '    #2      19  ┌ group 2         assistant → get_weather(call_1), get_weather(call_2)',
    );
    expect(stdout).toContain('    #4       8  └ group 2         tool(call_2) "Kyoto: 24°C, sunny"');
  });
});

describe.concurrent(
  'inspect: bad files exit 1 with one line naming the file and the path inside it',
  () => {
    const dict = JSON.parse(JSON.stringify(toDict(state)));
    dict.messages[3].role = 'USER';
    const text = JSON.stringify(encodeEnvelope(log));
    const cases: [string, string, RegExp][] = [
      ['bad-role', file('bad-role.json', dict), /: messages\[3\]\.role: /],
      [
        'bad session memory',
        file('bad-session.json', { session_id: 's', created_at: 1, updated_at: 1, memory: dict }),
        /: memory\.messages\[3\]\.role: /,
      ],
      [
        'truncated',
        file('truncated.json', text.slice(0, text.length / 2)),
        /: \(root\): not JSON \(truncated\?\): /,
      ],
      [
        'foreign',
        file('foreign.json', { name: 'package', version: '1.0.0' }),
        /: schema: expected "conversation-memory"/,
      ],
      [
        'newer version',
        file('newer.json', { ...encodeEnvelope(state), version: ENVELOPE_VERSION + 1 }),
        /: version: written by a newer conversation-memory \(envelope version 2\); this one reads versions up to 1$/,
      ],
      ['missing', join(dir, 'nowhere.json'), /: cannot read the file: ENOENT/],
      ['a directory', dir, /: cannot read the file: EISDIR/],
    ];

    it.each(cases)('%s', async (_, path, message) => {
      const { code, stdout, stderr } = await inspect(['inspect', path]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.endsWith('\n') && stderr.split('\n')).toHaveLength(2);
      expect(stderr).toMatch(
        new RegExp(`^conversation-memory inspect: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      expect(stderr.trimEnd()).toMatch(message);
    });
  },
);

describe.concurrent('inspect: usage errors exit 2 with the usage text', () => {
  it.each([
    [['inspect', logFile, '--colour'], 'unknown option "--colour"'],
    [['inspect', logFile, '--at', '17'], '--at 17 is out of range'],
    [['inspect', logFile, '--at', 'x'], '--at expects a step number (0, 1, 2, …), got "x"'],
    [['inspect'], 'missing FILE'],
    [['look', logFile], 'unknown command "look"'],
  ])('%j', async (args, problem) => {
    const { code, stdout, stderr } = await inspect(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(`conversation-memory: ${problem}`);
    expect(stderr).toContain('Usage: conversation-memory inspect FILE [--at N] [--json]');
  });
});

describe('inspect: colours only on a terminal, never with NO_COLOR', () => {
  /** Runs the CLI with a pseudo-terminal as stdout (util-linux `script`). */
  const onTerminal = (env: NodeJS.ProcessEnv) => {
    const command = [tsx, main, 'inspect', logFile, '--at', '9'].map((a) => `'${a}'`).join(' ');
    return spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: root,
      encoding: 'utf8',
      env,
      timeout: 20_000,
    });
  };

  it('colours on a terminal; NO_COLOR=1 turns them off; piped output never has them', async () => {
    const coloured = onTerminal(inherited);
    expect(coloured.status).toBe(0);
    expect(coloured.stdout).toContain(`${ESC}36m     -      10  summary`);
    expect(coloured.stdout).toContain(`${ESC}31mtrimmed at this step`);
    const plain = onTerminal({ ...inherited, NO_COLOR: '1' });
    expect(plain.stdout).toContain('step 9 of 16');
    expect(plain.stdout).not.toContain(ESC);
    expect((await inspect(['inspect', logFile, '--at', '9'])).stdout).not.toContain(ESC);
  });
});
