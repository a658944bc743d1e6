/**
 * Which test files run where: the plan `vite.config.ts` builds its two projects from, kept apart
 * so that `test/setup/testPlan.test.ts` can check it against the files themselves.
 *
 * - Most files run in one shared worker process per worker (`isolate: false`): the library's
 *   modules are imported once per worker instead of once per file, which was a third of the
 *   suite's time. A file that changes process-wide state that another file could observe runs in
 *   a process of its own: it mocks a module, registers a tokenizer or an embedder (the registries
 *   are per process), loads the browser build's optional parts, or looks at which modules Node has
 *   loaded. The check in `testPlan.test.ts` finds such files by what they call and fails when one
 *   is missing here. A file that compares timings runs alone too, so that the garbage of the files
 *   before it in a shared process does not weigh on one timing and not the other.
 * - The rerun against the built `dist/` (`TEST_DIST=1`, after `npm run build`) runs only the
 *   files that exercise what the build changes: every entry through the package name (surface and
 *   smoke), the bundles' chunks and lazily loaded parts (tokens, the redundancy planner in the
 *   Node and browser builds), the adapters, the stores and the agent's stores through
 *   `conversation-memory/node`, the stores' conformance suites as store authors import them
 *   (`conversation-memory/store-kit/testing`), the CLI and the inspector page, the examples and
 *   the README. The reducers, codecs and views are the same code in both builds (the build
 *   bundles them; it does not transform their logic), so their properties run once, against
 *   `src/`.
 */

/** Files that run in a process of their own (relative to the project root). */
export const ISOLATED_TEST_FILES: readonly string[] = [
  // vi.mock / vi.hoisted module mocks
  'test/core/configFields.extraRow.test.ts',
  'test/node/sessions.file.move.test.ts',
  // registries and lazily loaded parts that are per process
  'test/codec/serialization.test.ts',
  'test/core/config.test.ts',
  'test/core/configFields.test.ts',
  'test/core/reconfigure.test.ts',
  'test/knowledge/retrieval/budget.prop.test.ts',
  'test/log/eventLog.linear.test.ts',
  'test/messages/messageAppFields.test.ts',
  'test/prune/browserPlanner.test.ts',
  'test/prune/redundant.prop.test.ts',
  'test/prune/redundant.test.ts',
  'test/tokens/lazyEncodings.test.ts',
  'test/tokens/tokenTotal.test.ts',
  'test/tokens/tokens.browserBuild.test.ts',
  'test/tokens/tokens.encodingsSubpath.test.ts',
  'test/tokens/tokens.prototypeNames.test.ts',
  'test/tokens/tokens.registry.test.ts',
  'test/tokens/tokens.test.ts',
  'test/view/modelView.recallEmbedder.test.ts',
  // timing ratios (a growth check): away from the garbage other files leave in a shared process
  'test/tokens/tokens.growth.test.ts',
];

/**
 * What a file calls that makes it change process-wide state (see the module comment): a file
 * whose text matches one of these must be listed in {@link ISOLATED_TEST_FILES}.
 */
export const PROCESS_STATE_PATTERN =
  /\bvi\.(?:mock|doMock|hoisted|resetModules|stubGlobal|stubEnv)\(|\b(?:registerTokenizer|registerEmbedder|enableRedundantPruning|loadTokenizer)\(|registersWordsTokenizer|createRequire\(import\.meta\.url\)\.cache/;

/** The folders and files the rerun against `dist/` runs (prefixes of paths from the root). */
export const DIST_TEST_PATHS: readonly string[] = [
  'test/surface/',
  'test/errors/',
  'test/adapters/',
  // the tokenizer registry and counting through the built entries; not the timing ratios
  // (tokens.growth, tokens.linear), which measure gpt-tokenizer's growth, the same in both builds
  'test/tokens/lazyEncodings.test.ts',
  'test/tokens/tokenTotal.test.ts',
  'test/tokens/tokens.browserBuild.test.ts',
  'test/tokens/tokens.encodingsSubpath.test.ts',
  'test/tokens/tokens.prototypeNames.test.ts',
  'test/tokens/tokens.registry.test.ts',
  'test/tokens/tokens.tableModels.test.ts',
  'test/tokens/tokens.test.ts',
  'test/prune/browserPlanner.test.ts',
  'test/prune/redundant.test.ts',
  'test/sessions/',
  'test/eventStore/',
  'test/stores/',
  'test/node/',
  'test/agent/agent.session.test.ts',
  'test/agent/agent.eventStore.test.ts',
  'test/agent/agent.resume.test.ts',
  'test/agent/sse.test.ts',
  'test/knowledge/persist/',
  'test/knowledge/store/',
  // the MCP entry as built (the SDK an external peer); not the CLI's child processes (mcpCli), nor
  // graphSearch.prop, which imports the sources' internals
  'test/mcp/mcpServer.test.ts',
  'test/mcp/mcpHttp.test.ts',
  'test/mcp/mcpReads.test.ts',
  'test/inspector/',
  'test/examples/',
  'test/docs/readme.test.ts',
];

/**
 * Files inside the rerun's folders that run against the sources only: the retention tests of one
 * backend's internals (batch sizes seen from another connection, statements killed between writes,
 * rows read from the tables). The code they exercise is the same in both builds, and the built
 * stores' retention is covered in the rerun by the conformance suites.
 */
export const SOURCE_ONLY_TEST_FILES: readonly string[] = [
  'test/node/eventStore.sqlite.prune.test.ts',
  'test/node/postgres.retention.bounded.test.ts',
  'test/node/postgres.retention.erasure.test.ts',
  'test/node/postgres.retention.races.test.ts',
  'test/node/redis.retention.bounded.test.ts',
  'test/node/redis.retention.erasure.test.ts',
  'test/node/retention.sqlite.batches.test.ts',
  'test/node/retention.sqlite.erasure.test.ts',
  'test/node/retention.sqlite.race.test.ts',
  'test/node/sessions.file.retention.test.ts',
];

/** Whether a test file (path from the root) runs in the rerun against `dist/`. */
export const runsAgainstDist = (file: string): boolean =>
  !SOURCE_ONLY_TEST_FILES.includes(file) &&
  DIST_TEST_PATHS.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));
