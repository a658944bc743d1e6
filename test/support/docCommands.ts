import { codeBlocksOf, codeSpansOf, markdownFiles } from './markdown';

/**
 * The shell commands README.md and docs/**\/*.md print, found mechanically (so a new command in
 * the docs is covered without a test change): each line of a ```sh / ```bash / ```shell block
 * (comments dropped, `\` continuations joined) and each inline code span of the prose that starts
 * with a command word (`npm run demo`), a `&&` chain split into its commands. Each is sorted into
 * one kind by the first rule of `RULES` it matches; a command no rule matches is a test failure,
 * so every printed command is either run or deliberately checked another way:
 *
 * - `clone`: for someone in a clone of this repository, after the README's set-up
 *   (`npm install && npm run demo`); test/docs/docs.commands.test.ts runs them, as written, in a
 *   fresh copy of the checkout (no dist/, no build/), in reading order;
 * - `installed`: for an app that installed the package (`npx conversation-memory …`);
 *   test/dist/cli.mjs runs them, as written, in a project where the packed tarball is installed,
 *   with `log.json` standing for the app's recorded conversation;
 * - `setup`: installs something (`npm install`, `apt-get install …`): not run; the test's checkout
 *   (its node_modules) or project stands for its result;
 * - `long`: long-running (the whole suite, a benchmark, a server): the npm script or the file it
 *   names must exist, each file its script names too, and its arguments must parse;
 * - `mention`: names a program or an option in prose (`node -e`), not a command line.
 */
export type CommandKind = 'clone' | 'installed' | 'setup' | 'long' | 'mention';

/** A command the docs print. */
export interface DocCommand {
  readonly file: string;
  readonly line: number;
  /** The command as written (one command of a `&&` chain). */
  readonly text: string;
}

/** The first word of a command line, as an inline code span is recognised as a command. */
const COMMAND_WORDS = new Set(['npm', 'npx', 'node', 'tsx', 'pnpm', 'yarn', 'apt-get', 'git']);

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

/** The commands of one shell line (`a && b` is two), comments dropped. */
const commandsOfLine = (line: string): readonly string[] =>
  line
    .replace(/(^|\s)#.*$/, '')
    .split('&&')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** Every command README.md and docs/**\/*.md print, in reading order (README first). */
export const docCommands = (): readonly DocCommand[] =>
  markdownFiles().flatMap((file) => {
    const fromBlocks = codeBlocksOf(file)
      .filter((block) => SHELL_LANGUAGES.has(block.lang))
      .flatMap((block) =>
        block.code
          .replace(/\\\n\s*/g, ' ')
          .split('\n')
          .flatMap((line, index) =>
            commandsOfLine(line).map((text) => ({ file, line: block.line + 1 + index, text })),
          ),
      );
    const fromProse = codeSpansOf(file)
      .filter((span) => COMMAND_WORDS.has(span.code.split(' ')[0] ?? ''))
      .flatMap((span) => commandsOfLine(span.code).map((text) => ({ ...span, text })));
    return [...fromBlocks, ...fromProse].sort((a, b) => a.line - b.line);
  });

/** How a kind of command is recognised, and why it is not simply run (for the other kinds). */
export interface CommandRule {
  readonly match: RegExp;
  readonly kind: CommandKind;
  readonly why: string;
}

/** Tried in order; the first that matches decides. */
export const RULES: readonly CommandRule[] = [
  {
    match: /^npm install conversation-memory$/,
    kind: 'installed',
    why: "an app's install: test/dist/cli.mjs installs the packed tarball",
  },
  { match: /^npx conversation-memory( |$)/, kind: 'installed', why: 'the installed bin' },
  {
    match: /^npm (install|ci)( --?[a-z-]+)*$/,
    kind: 'setup',
    why: "installs the clone's dependencies: the copy links the checkout's node_modules",
  },
  { match: /^apt-get install [a-z0-9 -]+$/, kind: 'setup', why: 'system packages' },
  {
    match: /^npm install -D [a-z0-9@/ -]+$/,
    kind: 'setup',
    why: "a project's dev dependencies (the store author's test tools)",
  },
  { match: /^(npm|npx|node|tsx)$/, kind: 'mention', why: "a program's name" },
  { match: /^node -[ep]$/, kind: 'mention', why: "one of Node's options, named in prose" },
  { match: /^npm test$/, kind: 'long', why: 'the whole suite, which runs this test' },
  { match: /^npm run docs$/, kind: 'long', why: 'TypeDoc over every entry; npm test runs it' },
  { match: /^npm run lint$/, kind: 'long', why: 'ESLint over the repository; npm test runs it' },
  { match: /^npm run bench(:[a-z]+)?( |$)/, kind: 'long', why: 'a benchmark' },
  {
    match: /^npx tsx examples\/chat-server\.ts$/,
    kind: 'long',
    why: 'a server that runs until stopped (test/examples runs it with --once)',
  },
  {
    match: /^npx tsx test\/support\/(bigPageMeasure|inspectorScreenshot)\.ts$/,
    kind: 'long',
    why: "Chromium on a 10,000-step page, or rewriting the docs' picture",
  },
  { match: /^npm run [a-z][\w:-]*( |$)/, kind: 'clone', why: 'an npm script of the clone' },
  { match: /^npx tsx [\w./-]+\.ts( |$)/, kind: 'clone', why: 'a script of the clone' },
  { match: /^node scripts\/[\w.-]+\.mjs( |$)/, kind: 'clone', why: 'a Node script of the clone' },
];

/** The rule that decides a command's kind, or `undefined` when none does. */
export const ruleOf = (text: string): CommandRule | undefined =>
  RULES.find((rule) => rule.match.test(text));

/** The commands of one kind, each once (its first place in reading order). */
export const commandsOfKind = (kind: CommandKind): readonly DocCommand[] => {
  const seen = new Set<string>();
  return docCommands().filter((command) => {
    if (ruleOf(command.text)?.kind !== kind || seen.has(command.text)) return false;
    seen.add(command.text);
    return true;
  });
};

/** Options whose value is a file the command writes: after a run, that file must exist. */
export const OUTPUT_OPTIONS: readonly string[] = ['--log', '--html'];

/** The files a command's output options name (`--html inspector.html` → `inspector.html`). */
export const outputsOf = (text: string): readonly string[] => {
  const words = text.split(' ');
  return words.flatMap((word, i) => (OUTPUT_OPTIONS.includes(word) ? [words[i + 1] ?? ''] : []));
};

/** Where a command was printed: `docs/inspector.md:19: npm run inspect -- demo-log.json`. */
export const whereOf = (command: DocCommand): string =>
  `${command.file}:${command.line}: ${command.text}`;
