import { readFile, writeFile } from 'node:fs/promises';
import { either as E } from 'fp-ts';
import type { KnowledgeStore } from '../../stores/knowledge/types';
import { createEntities, addObservations, createRelations } from '../graph/graphChanges';
import { createKnowledge } from '../../library';
import { graphInForce, MCP_GRAPH_ID } from '../graph/mcpGraph';
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
export const MCP_USAGE = `Usage: conversation-memory mcp [--store PATH] [--namespace NS] [--import FILE]
       conversation-memory mcp [--store PATH] [--namespace NS] --export FILE

Serves the knowledge graph over the Model Context Protocol on stdio, with the
reference memory server's nine tools (create_entities, ..., open_nodes).

  --store PATH     where the graph lives: a .jsonl file (the default,
                   ./memory.jsonl: the reference server's file, read as it is,
                   plus one history line it skips), or a SQLite file (.db,
                   .sqlite, .sqlite3) that several servers can share
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
    }
  | { readonly kind: 'usage'; readonly problem: string };

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
  const known = ['--store', '--namespace', '--import', '--export'];
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as string;
    if (flag === '--http') {
      return { kind: 'usage', problem: '--http is not available yet: this version serves stdio' };
    }
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
  return {
    kind: exportFile === undefined ? 'serve' : 'export',
    store,
    ...(namespace === undefined ? {} : { namespace }),
    ...(importFile === undefined ? {} : { importFile }),
    ...(exportFile === undefined ? {} : { exportFile }),
  };
};

/**
 * What the command loads at run time, by the package's name (src/cli/main.ts gives them), so
 * that the bin bundles neither the stores' optional peers nor the MCP SDK.
 */
export interface McpCommandParts {
  /** A SQLite knowledge store on `path`. */
  readonly sqliteStore: (path: string) => Promise<KnowledgeStore>;
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
  /\.(db|sqlite|sqlite3)$/i.test(store)
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
    state = createRelations(state, graph.right.relations, at).state;
    try {
      await store.save(MCP_GRAPH_ID, state, { ...where, expectedRevision: loaded?.revision ?? 0 });
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'CM_KNOWLEDGE_CONFLICT') throw error;
    }
  }
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
): Promise<number> => {
  const args = readMcpArgs(argv);
  if (args.kind === 'usage') {
    stderr(`conversation-memory mcp: ${args.problem}\n\n${MCP_USAGE}`);
    return 2;
  }
  const now = Date.now;
  const store = await openStore(args.store, args.namespace, now, parts);
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
    stderr(`conversation-memory mcp: serving ${args.store} on stdio\n`);
    await parts.serveStdio(store, args.namespace);
    return 0;
  } finally {
    await store.close();
  }
};
