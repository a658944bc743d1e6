/**
 * Runs every script in examples/ with tsx, as a user would, and checks that it exits 0 and prints
 * its key line. Each example also asserts its own claims at runtime (it throws when the window is
 * wrong), so an API change that breaks an example fails here.
 *
 * Examples import `conversation-memory` by name, as an application does, so each file can be
 * copied as it is. tsx resolves the name through tsconfig.json's `paths` to `src/`; with
 * `TEST_DIST=1` a tsconfig that maps it to the built `dist/` is used instead.
 */
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const tsconfig =
  process.env['TEST_DIST'] === '1' ? ['--tsconfig', 'test/dist/tsconfig.examples.json'] : [];

/** Arguments an example is run with: the chat server answers one request of its own and exits. */
const argsOf: Readonly<Record<string, readonly string[]>> = {
  'chat-server.ts': ['--once'],
  'ai-sdk-chat-server.ts': ['--once'],
};

/** One line each example must print (its conclusion), by file name. */
const expected: Readonly<Record<string, string>> = {
  'chat-server.ts': 'chat server: 5 text deltas streamed, finish says "Nice to meet you, Ada."',
  'ai-sdk-chat-server.ts':
    'AI SDK chat server: streamed "Nice to meet you, Ada." in 11 chunks; the conversation holds 2 UI messages, the reply with the streamed id',
  'demo.ts':
    'demo complete: 4 runs, 3 trims, 3 summaries, summary injected in 4 model calls; the model answered "Your name is Alice." from the summary',
  'aiSdkAdapter.ts': 'ai-sdk example complete: 2 calls, tool turn answered',
  'anthropicAdapter.ts': 'anthropic adapter: tool turn complete, final answer "2 + 2 = 4"',
  'openaiAdapter.ts': 'openai adapter: 2 calls, roles sent: system, user, assistant, tool',
  'knowledgeAcrossSessions.ts':
    'knowledge across sessions: session 2 received the remembered preference; "Nice" retired "Lyon" (kept, validTo set); 4 facts, each stored once',
  'eventSourcedAgent.ts':
    'event-sourced agent: child killed with SIGKILL at version 4, resumed from the stream, finished at version 8; load equals replay',
  'modelView.ts': 'model view: 6 messages sent, 1 changes, 0 violations; memory unchanged',
  'promptCaching.ts':
    'prompt caching: 3 calls, each with the system prompt and the newest turn marked (2, 3, 3 breakpoints)',
  'streamingAgent.ts':
    'streaming agent: 2 model calls, 1 tool call, the streamed text is the final answer',
  'memoryTour.ts':
    'demo complete: removed 2 by the message limit, 3 by the token limit, 3 at the tool-pair boundary',
  'reducerLoop.ts': 'replayed 8 actions: same final state',
  'saveRestore.ts':
    'toDict(fromDict(saved file)) writes the saved JSON back exactly: same keys, order and values',
  'summarizeOnTrim.ts':
    'summarize-on-trim: 1 failed summary lost nothing; the first commit covers positions 0–3',
  'reduxChat.ts':
    'redux chat: 2 threads, 3 trims printed by the listener, 5 messages archived + 6 in windows = 11 sent',
  'sharedSessions.ts': 'shared sessions: 4 turns by 3 agents, revision 4, 8 messages, no turn lost',
  'slidingWindow.ts': `Final window: [ASSISTANT("Hi!"), USER("What's 2+2?"), ASSISTANT("4")]`,
  'tokenLimit.ts': 'message is kept even though maxTokens is 40',
  'zustandChat.ts':
    'zustand example: reloaded 3 messages (positions 1, 2, 3); a newer save was reported and left untouched until clearStorage',
  'timeTravel.ts':
    'time travel: 8 steps replayed, seek(3) shows the tool turn, a fork from step 5 diverges',
  'toolPairs.ts': '    breakdown: messageLimit=1 tokenLimit=0 toolPairBoundary=3',
};

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  readonly name: string;
  readonly exports: Readonly<Record<string, unknown>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
};

/** The package a specifier names: `zustand/middleware` → `zustand`, `@ai-sdk/openai/x` → `@ai-sdk/openai`. */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Whether an example may import `specifier`: the package's own entries (`conversation-memory`,
 * `conversation-memory/testing`, … as its `exports` list them), Node's built-ins, the peer
 * packages and their subpaths (`zustand/vanilla`), the package's dependencies (installed with it:
 * fp-ts, whose `Either` its decoders return) and the AI SDK's provider packages (`@ai-sdk/openai`:
 * where the `ai` peer's models come from). Nothing of the repository (`../test/support/…`,
 * `../src/…`), so each example runs as it is in an app that installed the package.
 */
/** Peers only `conversation-memory/store-kit/testing` needs: test tools, which no app imports. */
const TEST_PEERS: ReadonlySet<string> = new Set(['vitest', 'fast-check']);

const mayImport = (specifier: string): boolean =>
  Object.keys(pkg.exports).some((entry) => `${pkg.name}${entry.slice(1)}` === specifier) ||
  builtinModules.includes(specifier.replace(/^node:/, '')) ||
  (packageOf(specifier) in pkg.peerDependencies && !TEST_PEERS.has(packageOf(specifier))) ||
  packageOf(specifier) in pkg.dependencies ||
  /^@ai-sdk\/[a-z-]+$/.test(packageOf(specifier));

/** Every module a file imports: import and export declarations, `import()` and `require()`. */
const importsOf = (source: string): readonly string[] => {
  const file = ts.createSourceFile('example.ts', source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      const [first] = node.arguments;
      found.push(first !== undefined && ts.isStringLiteralLike(first) ? first.text : '(computed)');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
};

const examples = readdirSync(new URL('../../examples', import.meta.url))
  .filter((name) => name.endsWith('.ts'))
  .sort();

describe('examples', () => {
  it("every example imports the package by name, and only the package's entries, Node's built-ins and the peers", () => {
    const imports = examples.map((name) => ({
      name,
      imports: importsOf(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8')),
    }));
    expect(imports.filter(({ imports }) => !imports.includes('conversation-memory'))).toEqual([]);
    expect(
      imports.flatMap(({ name, imports }) =>
        imports
          .filter((specifier) => !mayImport(specifier))
          .map((specifier) => `${name}: ${specifier}`),
      ),
    ).toEqual([]);
  });

  it.each([
    ['conversation-memory', true],
    ['conversation-memory/testing', true],
    ['conversation-memory/sessions/node', true],
    ['node:assert/strict', true],
    ['fs', true],
    ['zustand/middleware', true],
    ['@anthropic-ai/sdk', true],
    ['@ai-sdk/openai', true],
    ['fp-ts', true],
    ['../test/support/loopback/openaiServer', false],
    ['../src/library', false],
    ['./helpers', false],
    ['conversation-memory/nope', false],
    ['conversation-memory/src/library', false],
    ['vitest', false],
    ['tsx', false],
    ['node:nope', false],
  ] as const)('an example may import %s: %s', (specifier, allowed) => {
    expect(mayImport(specifier)).toBe(allowed);
  });

  it('finds every kind of import', () => {
    expect(
      importsOf(
        "import a from 'a';\nimport type { B } from 'b';\nexport * from 'c';\nawait import('d');\nrequire('e');\nimport('f' + x);",
      ),
    ).toEqual(['a', 'b', 'c', 'd', 'e', '(computed)']);
  });

  it('every example has an expected line', () => {
    expect(examples).toEqual(Object.keys(expected).sort());
  });

  // Concurrently (vitest runs up to five at once): each is a separate process that mostly waits
  // (tsx's start, servers, a child process), so running them one by one left the cores idle.
  it.concurrent.each(examples)(
    '%s runs and prints its key line',
    async (name) => {
      // execFile rejects (failing the test, with the script's stderr) on a non-zero exit.
      const { stdout } = await run(
        tsx,
        [...tsconfig, `examples/${name}`, ...(argsOf[name] ?? [])],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 45_000,
        },
      );
      expect(stdout).toContain(expected[name]);
    },
    60_000,
  );
});
