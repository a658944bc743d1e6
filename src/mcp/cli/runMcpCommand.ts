import { readFile, writeFile } from 'node:fs/promises';
import { either as E } from 'fp-ts';
import type { KnowledgeStore } from '../../stores/knowledge/types';
import {
  addObservations,
  createEntities,
  createRelations,
  withinBounds,
} from '../graph/graphChanges';
import { createKnowledge } from '../../library';
import { graphInForce } from '../graph/graphReads';
import { MCP_GRAPH_ID } from '../graph/mcpGraph';
import { formatReferenceJsonl, parseReferenceJsonl } from '../graph/referenceJsonl';
import { jsonlFileStore } from './jsonlFileStore';

/**
 * The usage of `conversation-memory mcp`.
 *
 * @example
 * ```ts
 * MCP_USAGE.startsWith('Usage: conversation-memory mcp'); // true
 * ```
 */
export const MCP_USAGE = `Usage: conversation-memory mcp [--http PORT [--host H]] [--store S]
                               [--namespace NS] [--import FILE]
       conversation-memory mcp [--store S] [--namespace NS] --export FILE
       conversation-memory mcp --help

Serves the knowledge graph over the Model Context Protocol, on stdio or on
Streamable HTTP, with the reference memory server's nine tools
(create_entities, ..., open_nodes).

  --http PORT      serve http://127.0.0.1:PORT/mcp instead of stdio (0: a port
                   the system picks; the URL is printed on stderr); Ctrl-C stops
  --host H         the address to bind with --http (default 127.0.0.1)
  --store S        where the graph lives: a .jsonl file (the default,
                   ./memory.jsonl: the reference server's file, read as it is,
                   plus one history line it skips), a SQLite file (.db,
                   .sqlite, .sqlite3), a Redis URL (redis://, rediss://) or a
                   PostgreSQL URL (postgres://, postgresql://); several
                   servers can share the last three
  --namespace NS   the graph of one project or user in the store
  --import FILE    first adds a reference memory.jsonl's entities, relations
                   and observations to the graph (those it lacks)
  --export FILE    writes the graph in force as a reference memory.jsonl and
                   exits
`;

/** What `mcp` was asked. */
export type McpArgs =
  | {
      readonly kind: 'serve' | 'export';
      readonly store: string;
      readonly namespace?: string;
      readonly importFile?: string;
      readonly exportFile?: string;
      readonly http?: number;
      readonly host?: string;
    }
  | { readonly kind: 'usage'; readonly problem: string }
  | { readonly kind: 'help' };

/**
 * Reads `mcp`'s arguments (after the word `mcp`).
 *
 * @example
 * ```ts
 * readMcpArgs(['--store', 'graph.db']); // { kind: 'serve', store: 'graph.db' }
 * ```
 */
export const readMcpArgs = (argv: readonly string[]): McpArgs => {
  const values: Record<string, string> = {};
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) return { kind: 'help' };
  const known = ['--store', '--namespace', '--import', '--export', '--http', '--host'];
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as string;
    if (!known.includes(flag))
      return { kind: 'usage', problem: `unknown option ${JSON.stringify(flag)}` };
    const value = argv[i + 1];
    if (value === undefined || value === '') {
      return { kind: 'usage', problem: `${flag} needs a value` };
    }
    if (flag in values) return { kind: 'usage', problem: `${flag} is given twice` };
    values[flag] = value;
  }
  const store = values['--store'] ?? './memory.jsonl';
  const namespace = values['--namespace'];
  const importFile = values['--import'];
  const exportFile = values['--export'];
  const httpText = values['--http'];
  const http = httpText === undefined ? undefined : Number(httpText);
  if (http !== undefined && !(/^\d{1,5}$/.test(httpText ?? '') && http <= 65_535)) {
    return {
      kind: 'usage',
      problem: `--http must be a port from 0 to 65535, received ${JSON.stringify(httpText)}`,
    };
  }
  const host = values['--host'];
  if (host !== undefined && http === undefined) {
    return { kind: 'usage', problem: '--host goes with --http' };
  }
  if (http !== undefined && exportFile !== undefined) {
    return {
      kind: 'usage',
      problem: '--export writes a file and exits: it does not go with --http',
    };
  }
  return {
    kind: exportFile === undefined ? 'serve' : 'export',
    store,
    ...(namespace === undefined ? {} : { namespace }),
    ...(importFile === undefined ? {} : { importFile }),
    ...(exportFile === undefined ? {} : { exportFile }),
    ...(http === undefined ? {} : { http }),
    ...(host === undefined ? {} : { host }),
  };
};

/**
 * What the command loads at run time, by the package's name (src/cli/main.ts gives them), so
 * that the bin bundles neither the stores' optional peers nor the MCP SDK.
 */
export interface McpCommandParts {
  /** A SQLite knowledge store on `path`. */
  readonly sqliteStore: (path: string) => Promise<KnowledgeStore>;
  /** A Redis knowledge store at `url`. */
  readonly redisStore: (url: string) => Promise<KnowledgeStore>;
  /** A PostgreSQL knowledge store at `url` (a connection string). */
  readonly postgresStore: (url: string) => Promise<KnowledgeStore>;
  /**
   * The server over `store` on Streamable HTTP; resolves to its URL and a function that stops it.
   */
  readonly serveHttp: (
    store: KnowledgeStore,
    namespace: string | undefined,
    port: number,
    host: string | undefined,
  ) => Promise<{ url: URL; close: () => Promise<void> }>;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  readonly stopRequested: () => Promise<void>;
  /** The server over `store`, connected to stdio; resolves when the client closes it. */
  readonly serveStdio: (store: KnowledgeStore, namespace: string | undefined) => Promise<void>;
}

/** Opens the store `--store` names. */
const openStore = async (
  store: string,
  namespace: string | undefined,
  now: () => number,
  parts: McpCommandParts,
): Promise<KnowledgeStore> =>
  /^rediss?:\/\//i.test(store)
    ? parts.redisStore(store)
    : /^postgres(ql)?:\/\//i.test(store)
      ? parts.postgresStore(store)
      : /\.(db|sqlite|sqlite3)$/i.test(store)
        ? parts.sqliteStore(store)
        : jsonlFileStore(store, MCP_GRAPH_ID, namespace, now);

/** Adds what a reference file holds to the stored graph (what it lacks), again on a conflict. */
const importInto = async (
  store: KnowledgeStore,
  namespace: string | undefined,
  file: string,
  now: () => number,
): Promise<void> => {
  const graph = parseReferenceJsonl(await readFile(file, 'utf8'));
  if (E.isLeft(graph)) throw new Error(`${file}: ${graph.left.detail}`);
  const where = namespace === undefined ? {} : { namespace };
  for (;;) {
    const loaded = await store.load(MCP_GRAPH_ID, where);
    const at = now();
    let state = loaded?.state ?? createKnowledge();
    state = createEntities(state, graph.right.entities, at).state;
    state = addObservations(
      state,
      graph.right.entities.map((e) => ({ entityName: e.name, contents: e.observations })),
      at,
    ).state;
    state = withinBounds(createRelations(state, graph.right.relations, at).state);
    try {
      await store.save(MCP_GRAPH_ID, state, { ...where, expectedRevision: loaded?.revision ?? 0 });
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'CM_KNOWLEDGE_CONFLICT') throw error;
    }
  }
};

/** `--store` as printed: a URL's user and password are not (stderr ends up in logs). */
const shownStore = (store: string): string =>
  store.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1***@');

/** The SDK, an optional peer of the package: what to install when it is missing. */
const SDK = '@modelcontextprotocol/sdk';

/**
 * An error's text in one line; a missing MCP SDK (the package's optional peer, loaded only to
 * serve) says how to install it.
 */
const problemOf = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error);
  const missing =
    (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' && text.includes(SDK);
  return missing ? `serving needs ${SDK}, an optional peer: npm install ${SDK}@1 (${text})` : text;
};

/**
 * Runs `conversation-memory mcp ARGS`: serves the graph on stdio until the client closes it, or
 * exports it. Resolves to the exit code; problems are written to `stderr` (stdout is the
 * protocol's).
 */
export const runMcpCommand = async (
  argv: readonly string[],
  stderr: (text: string) => void,
  parts: McpCommandParts,
  stdout: (text: string) => void = () => undefined,
): Promise<number> => {
  const args = readMcpArgs(argv);
  if (args.kind === 'help') {
    stdout(MCP_USAGE);
    return 0;
  }
  if (args.kind === 'usage') {
    stderr(`conversation-memory mcp: ${args.problem}\n\n${MCP_USAGE}`);
    return 2;
  }
  const now = Date.now;
  let store: KnowledgeStore;
  try {
    store = await openStore(args.store, args.namespace, now, parts);
  } catch (error) {
    // A damaged file, a store that cannot be opened: said in one line, exit 1.
    stderr(`conversation-memory mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const where = args.namespace === undefined ? {} : { namespace: args.namespace };
  try {
    if (args.importFile !== undefined)
      await importInto(store, args.namespace, args.importFile, now);
    if (args.kind === 'export') {
      const loaded = await store.load(MCP_GRAPH_ID, where);
      const graph = loaded === null ? { entities: [], relations: [] } : graphInForce(loaded.state);
      await writeFile(args.exportFile as string, formatReferenceJsonl(graph), 'utf8');
      return 0;
    }
    if (args.http !== undefined) {
      const endpoint = await parts.serveHttp(store, args.namespace, args.http, args.host);
      stderr(
        `conversation-memory mcp: serving ${shownStore(args.store)} at ${endpoint.url.href}\n`,
      );
      await parts.stopRequested();
      await endpoint.close();
      return 0;
    }
    stderr(`conversation-memory mcp: serving ${shownStore(args.store)} on stdio\n`);
    await parts.serveStdio(store, args.namespace);
    return 0;
  } catch (error) {
    // A file to import that is not a reference file, a port in use, a store that failed, the SDK
    // not installed.
    stderr(`conversation-memory mcp: ${problemOf(error)}\n`);
    return 1;
  } finally {
    await store.close();
  }
};
