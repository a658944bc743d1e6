/**
 * The `conversation-memory inspect` CLI, run from source as a user runs it (a child process of
 * plain node), on every input kind, corrupt inputs, usage errors, colours and NO_COLOR, a SQLite
 * file, `--version`, misspelt options and hostile text in `--json`.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAction,
  encodeEnvelope,
  exportEventLog,
  memoryActions,
  toDict,
  userMessage,
} from 'conversation-memory';
import { ENVELOPE_VERSION } from 'conversation-memory/store-kit';
import { SqliteEventStore } from 'conversation-memory/node';
import { modelViewAt, timelineRows, windowAt } from '../../src/inspector/model';
import { recordedLog, summarizedLog, viewLog } from '../support/inspectorLog';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cm-inspect-'));

/**
 * The command from source (src/cli/main.ts), bundled once with esbuild and run with
 * plain node: under tsx every run costs a second or more of transpiling, which this file's forty
 * runs cannot afford on a busy machine. Written inside the project (test/.artifacts/, ignored by
 * git) so that its dependencies resolve from the project's node_modules.
 */
mkdirSync(join(root, 'test/.artifacts'), { recursive: true });
const cliDir = mkdtempSync(join(root, 'test/.artifacts/cli-'));
const main = join(cliDir, 'cli.mjs');
beforeAll(async () => {
  await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: main,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(cliDir, { recursive: true, force: true }));
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

/** Runs the CLI in a child process (concurrently with the other tests). */
const inspect = (args: readonly string[]): Promise<Run> => {
  for (const arg of args) {
    if (existsSync(arg) && statSync(arg).isFile()) {
      if (!hashes.has(arg)) hashes.set(arg, [hash(arg), statSync(arg).mtimeMs]);
      touched.push(arg);
    }
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
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
const summarizedFile = file('summarized.json', encodeEnvelope(summarizedLog()));
const repaired = viewLog();
const repairedFile = file('repaired.json', encodeEnvelope(repaired));
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
      `${logFile}: event log, 16 actions (steps 0–16); maxMessages 5, maxTokens 40, tokenizer heuristic, toolPairs strict, pinSystem, startOn user`,
    );
    expect(lines).toHaveLength(2 + 17);
    expect(lines[2]).toMatch(/^ {3}0 {2}start +0\/5 +0\/40$/);
    expect(lines[2 + 6]).toMatch(
      /^ {3}6 {2}add tool\(c1\) "Paris: 18°C, cloudy" +4\/5 +14\/40 {2}trimmed 2 \(messageLimit 1, startOn 1\)$/,
    );
    expect(lines[2 + 8]).toMatch(
      /summary applied .* 5\/5 +19\/40 {2}summary added "The user is Alice."$/,
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
      'Model view (openai): 5 messages, what the next provider call receives',
      '   pos  mark              message',
      '     -  summary           system "[Conversation Summary] The user is Alice."',
      '    #0                    system "You are a travel assistant."',
      '    #7                    user "And Kyoto?"',
      '    #8                    assistant → get_weather(c2)',
      '    #9                    tool(c2) "Kyoto: 24°C, sunny"',
      'changes: none (the window is sent as memory holds it)',
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
    expect(lines[0]).toContain(`${path}: ${kind}, no actions (step 0 only);`);
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

describe.concurrent('inspect --at N: the model view after the retained window', () => {
  /** The lines from the "Model view" heading to the end. */
  const viewSection = (stdout: string) => {
    const lines = stdout.trimEnd().split('\n');
    return lines.slice(lines.findIndex((line) => line.startsWith('Model view (')));
  };

  it('an orphan tool result in the window (reference policy) is left out of the view, and said so', async () => {
    const { code, stdout } = await inspect(['inspect', repairedFile, '--at', '5']);
    expect(code).toBe(0);
    // The retained window holds it…
    expect(stdout).toContain(
      '    #4       5                    tool(c9) "\\u001b[31mstale 5</script>"',
    );
    // …the model does not receive it.
    expect(viewSection(stdout)).toEqual([
      'Model view (openai): 4 messages, what the next provider call receives',
      '   pos  mark              message',
      '    #0                    user "2 + 2?"',
      '    #1                    assistant → calc(c1)',
      '    #2                    tool(c1) "4"',
      '    #3                    assistant "4"',
      'changes: 1',
      '  left out #4 tool result: tool-result-without-call',
    ]);
  });

  it('a log ending in an unanswered call: the summary first, the call answered in the view, hostile ids escaped', async () => {
    const { code, stdout } = await inspect(['inspect', repairedFile, '--at', '8']);
    expect(code).toBe(0);
    expect(viewSection(stdout)).toEqual([
      'Model view (openai): 5 messages, what the next provider call receives',
      '   pos  mark              message',
      '     -  summary           system "[Conversation Summary] The user asks sums."',
      '    #3                    assistant "4"',
      '    #5                    user "And 3 + 3?"',
      '    #6                    assistant → calc\\n<b>x</b>(c2\\u001b[31m)',
      '     -  answers c2\\u001b[31m  tool(c2\\u001b[31m) "Interrupted: this tool call did not complete (the run stopped before ..."',
      'changes: 2',
      '  left out #4 tool result: tool-result-without-call',
      '  answered call c2\\u001b[31m (calc\\n<b>x</b>): interrupted',
    ]);
    expect(stdout).not.toContain('\u001b');
  });

  it('--target anthropic and none: the rules of that target', async () => {
    const [anthropic, none] = await Promise.all([
      inspect(['inspect', repairedFile, '--at', '8', '--target', 'anthropic']),
      inspect(['inspect', repairedFile, '--at=8', '--target=none']),
    ]);
    expect(anthropic.code).toBe(0);
    expect(viewSection(anthropic.stdout)).toEqual([
      'Model view (anthropic): 4 messages, what the next provider call receives',
      '   pos  mark              message',
      '     -  summary           system "[Conversation Summary] The user asks sums."',
      '    #5                    user "And 3 + 3?"',
      '    #6                    assistant → calc\\n<b>x</b>(c2\\u001b[31m)',
      '     -  answers c2\\u001b[31m  tool(c2\\u001b[31m) "Interrupted: this tool call did not complete (the run stopped before ..."',
      'changes: 3',
      '  left out #4 tool result: tool-result-without-call',
      '  answered call c2\\u001b[31m (calc\\n<b>x</b>): interrupted',
      '  left out #3 assistant message: first-message-not-user',
    ]);
    expect(none.code).toBe(0);
    expect(viewSection(none.stdout)[0]).toBe(
      'Model view (none): 5 messages, what the next provider call receives',
    );
  });

  it('--json gets a view field: the model view as data, beside the window', async () => {
    const [openai, anthropic] = await Promise.all([
      inspect(['inspect', repairedFile, '--at', '8', '--json']),
      inspect(['inspect', repairedFile, '--json', '--at', '8', '--target', 'anthropic']),
    ]);
    const parsed = JSON.parse(openai.stdout);
    expect(parsed.window).toEqual(JSON.parse(JSON.stringify(windowAt(repaired, 8))));
    expect(parsed.view).toEqual(JSON.parse(JSON.stringify(modelViewAt(repaired, 8, 'openai'))));
    expect(parsed.view.changes.map((c: { type: string }) => c.type)).toEqual([
      'view/omitted',
      'view/answered',
    ]);
    expect(parsed.view.changes[1].toolCallId).toBe('c2\u001b[31m');
    expect(JSON.parse(anthropic.stdout).view).toEqual(
      JSON.parse(JSON.stringify(modelViewAt(repaired, 8, 'anthropic'))),
    );
  });
});

describe.concurrent('inspect: usage errors exit 2 with the usage text', () => {
  it.each([
    [['inspect', logFile, '--colour'], 'unknown option "--colour"'],
    [
      ['inspect', logFile, '--at', '17'],
      `--at 17 is out of range: ${logFile} has 16 actions (steps 0–16)`,
    ],
    [['inspect', logFile, '--at', 'x'], '--at expects a step number (0, 1, 2, …), got "x"'],
    [['inspect'], 'missing FILE'],
    [['look', logFile], 'unknown command "look"'],
    [
      ['inspect', logFile, '--at', '3', '--target', 'antropic'],
      '--target expects openai, anthropic, none, got "antropic" (did you mean anthropic?)',
    ],
    [
      ['inspect', logFile, '--at', '3', '--target=OpenAI'],
      '--target expects openai, anthropic, none, got "OpenAI" (did you mean openai?)',
    ],
    [
      ['inspect', logFile, '--at', '3', '--target', 'gemini'],
      '--target expects openai, anthropic, none, got "gemini"\n',
    ],
    [
      ['inspect', logFile, '--at', '3', '--target'],
      '--target expects openai, anthropic, none, got nothing',
    ],
    [
      ['inspect', logFile, '--target', 'none'],
      '--target chooses the model view of --at N: use it with --at',
    ],
    [
      ['inspect', logFile, '--at', '3', '--taget', 'none'],
      'unknown option "--taget" (did you mean --target?)',
    ],
  ])('%j', async (args, problem) => {
    const { code, stdout, stderr } = await inspect(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(`conversation-memory: ${problem}`);
    expect(stderr).toContain(
      'Usage: conversation-memory inspect FILE [--at N [--target T]] [--json]',
    );
  });
});

describe.concurrent(
  'inspect: one way of counting steps (step 0 is the start, step n after the nth action)',
  () => {
    it('the header, --at and the range check agree: 16 actions are steps 0 to 16', async () => {
      const [timeline, last, over] = await Promise.all([
        inspect(['inspect', logFile]),
        inspect(['inspect', logFile, '--at', '16']),
        inspect(['inspect', logFile, '--at', '17']),
      ]);
      expect(timeline.stdout.split('\n')[0]).toContain('event log, 16 actions (steps 0–16);');
      expect(timeline.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ {2}16 {2}add user/);
      expect(last.stdout.split('\n')[1]).toMatch(/^step 16 of 16: add user/);
      expect(over.code).toBe(2);
    });
  },
);

describe.concurrent('inspect: the summary column says what each step added to the summary', () => {
  it('the new chunk only (not the whole summary), what a chunk covers, and a replacement', async () => {
    const { code, stdout } = await inspect(['inspect', summarizedFile]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[2 + 11]).toMatch(
      /commit summary through #3 .* {2}summary covers 3 messages between #0 and #3, added "Alice plans two days in Lyon in May\."$/,
    );
    expect(lines[2 + 16]).toMatch(
      /commit summary through #5 .* {2}summary covers #4–#5 \(2 messages\), added "Day 1 is Vieux Lyon\."$/,
    );
    expect(lines[2 + 17]).toMatch(/ {2}summary replaced by "Alice: Lyon, May, museums\."$/);
  });

  it('--at names the positions a chunk covers, and the one of its range still in the window', async () => {
    const { stdout } = await inspect(['inspect', summarizedFile, '--at', '11']);
    expect(stdout).toContain('    #2       4  pinned            system "Answer in French."');
    const lines = stdout.trimEnd().split('\n');
    // The step's last line before the model view.
    const view = lines.findIndex((line) => line.startsWith('Model view (openai):'));
    expect(lines[view - 1]).toBe(
      'summary covers #0–#1, #3 (3 messages; #2 is in the window), added "Alice plans two days in Lyon in May."',
    );
  });
});

describe.concurrent('inspect: decoding errors list every problem', () => {
  const dict = JSON.parse(JSON.stringify(toDict(state)));

  it('one problem per line, each with its path', async () => {
    const three = { ...dict, max_messages: 0, messages: [...dict.messages] };
    three.messages[0] = { ...dict.messages[0], role: 'USER' };
    three.messages[1] = { ...dict.messages[1], role: 'BOT' };
    const path = file('three-problems.json', three);
    const { code, stderr } = await inspect(['inspect', path]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      `conversation-memory inspect: ${path}: 3 problems:`,
      '  max_messages must be at least 1, received 0',
      '  messages[0].role: expected "user" | "assistant" | "system" | "tool", got "USER"',
      '  messages[1].role: expected "user" | "assistant" | "system" | "tool", got "BOT"',
    ]);
  });

  it('past the 20 the decoder lists: how many more, and how to see them', async () => {
    const many = {
      ...dict,
      max_messages: 30,
      message_count: 25,
      messages: Array.from({ length: 25 }, (_, i) => ({ role: 'USER', content: `m${i}` })),
    };
    const path = file('many-problems.json', many);
    const { code, stderr } = await inspect(['inspect', path]);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`conversation-memory inspect: ${path}: 25 problems:`);
    expect(lines.slice(1, 21)).toEqual(
      Array.from(
        { length: 20 },
        (_, i) =>
          `  messages[${i}].role: expected "user" | "assistant" | "system" | "tool", got "USER"`,
      ),
    );
    expect(lines.slice(21)).toEqual([
      '  … and 5 more problems, not listed: the decoder lists the first 20; fix these and run inspect again to see the next',
    ]);
  });
});

describe.concurrent(
  'inspect: --version, misspelt options, a SQLite file, --json on a terminal',
  () => {
    it('--version prints the package version', async () => {
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const [long, short] = await Promise.all([inspect(['--version']), inspect(['-v'])]);
      expect(long).toEqual({ code: 0, stdout: `conversation-memory ${version}\n`, stderr: '' });
      expect(short).toEqual(long);
    });

    it('a misspelt option or command is answered with the nearest one', async () => {
      const option = await inspect(['inspect', logFile, '--htm', join(dir, 'page.html')]);
      expect(option.code).toBe(2);
      expect(option.stderr).toContain(
        'conversation-memory: unknown option "--htm" (did you mean --html?)',
      );
      const command = await inspect(['inpsect', logFile]);
      expect(command.stderr).toContain('unknown command "inpsect" (did you mean inspect?)');
      expect(existsSync(join(dir, 'page.html'))).toBe(false);
    });

    it('a SQLite database (told by its header, whatever its name) is answered with how to export a stream', async () => {
      const db = join(dir, 'events.db');
      const store = new SqliteEventStore({ path: db });
      await store.append('thread-7', [memoryActions.messageAdded(userMessage('hi'))], {
        expectedVersion: 0,
        config: { maxMessages: 20, tokenizer: 'heuristic' },
      });
      await store.close();
      const renamed = file('events-copy.json', readFileSync(db).toString('latin1'));
      writeFileSync(renamed, readFileSync(db));
      for (const path of [db, renamed]) {
        const { code, stdout, stderr } = await inspect(['inspect', path]);
        expect([code, stdout]).toEqual([1, '']);
        expect(stderr).toMatch(
          new RegExp(
            `^conversation-memory inspect: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: a SQLite database, not a JSON file`,
          ),
        );
        expect(stderr).toContain("const log = await exportEventLog(store, 'thread-7');");
        expect(stderr).toContain('JSON.stringify(encodeEnvelope(log))');
        expect(stderr).toContain('README "Event store"');
      }
      // Doing what it says gives a file inspect reads.
      const reopened = new SqliteEventStore({ path: db });
      const exported = await exportEventLog(reopened, 'thread-7');
      await reopened.close();
      if (exported === null) throw new Error('the stream was not exported');
      const out = file('thread-7.json', JSON.stringify(encodeEnvelope(exported)));
      const read = await inspect(['inspect', out]);
      expect(read.code).toBe(0);
      expect(read.stdout).toContain('1 action (steps 0–1)');
    });

    it('--json escapes C1 controls and bidi overrides as \\u escapes, and parses back to the same strings', async () => {
      const hostile = 'csi \u009b31m, rlo \u202e, pdi \u2069, nel \u0085, ls \u2028';
      const hostileLog = appendAction(log, memoryActions.messageAdded(userMessage(hostile)));
      const session = {
        session_id: `thread\u202e-7`,
        namespace: null,
        created_at: 1,
        updated_at: 2,
        memory: toDict(hostileLog.head),
        revision: 1,
      };
      const paths = [
        file('hostile-log.json', encodeEnvelope(hostileLog)),
        file('hostile-session.json', session),
      ];
      const runs = await Promise.all([
        inspect(['inspect', paths[0] as string, '--json']),
        inspect(['inspect', paths[0] as string, '--json', '--at', String(hostileLog.length)]),
        inspect(['inspect', paths[1] as string, '--json', '--at', '0']),
      ]);
      for (const { code, stdout } of runs) {
        expect(code).toBe(0);
        expect(stdout).not.toMatch(
          /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
        );
        expect(stdout).toContain('\\u009b31m');
      }
      const [timeline, window, ofSession] = runs.map((run) => JSON.parse(run.stdout));
      expect(timeline.rows.at(-1).label).toBe(timelineRows(hostileLog).at(-1)?.label);
      expect(window.window.entries.at(-1).message.content).toBe(hostile);
      expect(ofSession.session.sessionId).toBe('thread\u202e-7');
      expect(ofSession.window.entries.at(-1).message.content).toBe(hostile);
    });
  },
);

describe('inspect: colours only on a terminal, never with NO_COLOR', () => {
  /** Runs the CLI with a pseudo-terminal as stdout (util-linux `script`). */
  const onTerminal = (env: NodeJS.ProcessEnv) => {
    const command = [process.execPath, main, 'inspect', logFile, '--at', '9']
      .map((a) => `'${a}'`)
      .join(' ');
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
