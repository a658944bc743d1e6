import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../package.json';
import {
  countMessageTokens,
  createKnowledge,
  describeValue,
  isKnownTokenizer,
  MemoryArgumentError,
  readOptionFields,
  userMessage,
} from '../library';
import type { KnowledgeState } from '../model/knowledge';
import type { KnowledgeStamp, KnowledgeStore } from '../stores/knowledge/types';
import {
  addObservations,
  createEntities,
  createRelations,
  deleteEntities,
  deleteObservations,
  deleteRelations,
  type GraphChange,
  withinBounds,
} from './graph/graphChanges';
import { graphInForce, openNodes, searchNodes } from './graph/graphReads';
import { MCP_GRAPH_ID, type McpGraph } from './graph/mcpGraph';
import { McpToolError } from './mcpErrors';
import { readArguments } from './readToolArguments';
import { EXTRA_TOOLS, REFERENCE_TOOLS } from './referenceTools';
import { isPaged, pageOf } from './graph/graphPages';
import { graphHistory, graphPage, recallObservations } from './graph/graphExtras';

/**
 * Options of {@link createMemoryMcpServer}.
 *
 * @example
 * ```ts
 * const options: MemoryMcpServerOptions = { store: new InMemoryKnowledgeStore(), namespace: 'project-a' };
 * ```
 */
export interface MemoryMcpServerOptions {
  /** Where the graph lives: any knowledge store (in memory, SQLite, Redis, PostgreSQL). */
  readonly store: KnowledgeStore;
  /** The store's namespace for this graph (one graph per project or user); none by default. */
  readonly namespace?: string | undefined;
  /** The record's id in the store (default {@link MCP_GRAPH_ID}). */
  readonly id?: string | undefined;
  /** The clock facts are recorded and retired by (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /**
   * The tokenizer that reads with `maxTokens` count their answer with (a registered name; default
   * `'o200k_base'`).
   */
  readonly tokenizer?: string | undefined;
}

const API = 'createMemoryMcpServer';

/** The keys of {@link MemoryMcpServerOptions}. */
const SERVER_KEYS = ['store', 'namespace', 'id', 'now', 'tokenizer'] as const;

/**
 * The options of `api`, read once and checked: a misspelled key or a value of the wrong kind is
 * refused, named. `more` are the caller's own further keys (`serveMcpHttp`'s `port`, …), returned
 * as given for it to check.
 *
 * @example
 * ```ts
 * readServerOptions({ store }, 'createMemoryMcpServer').options.store; // store
 * ```
 * @internal
 */
export const readServerOptions = <K extends string = never>(
  options: unknown,
  api: string = API,
  more: readonly K[] = [],
): { readonly options: MemoryMcpServerOptions; readonly more: Partial<Record<K, unknown>> } => {
  if (options === undefined) {
    throw new MemoryArgumentError(
      api,
      'options must be an object with a store, received undefined',
    );
  }
  const all = readOptionFields(options, [...SERVER_KEYS, ...more] as readonly string[], api, {
    example: '{ store: new InMemoryKnowledgeStore() }',
  }) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of SERVER_KEYS) if (key in all) fields[key] = all[key];
  const rest: Partial<Record<K, unknown>> = {};
  for (const key of more) if (key in all) rest[key] = all[key];
  const { store, namespace, id, now } = fields;
  const fail = (field: string, must: string, value: unknown): never => {
    throw new MemoryArgumentError(
      api,
      `options.${field} must be ${must}, received ${describeValue(value)}`,
    );
  };
  const methods = ['load', 'save'] as const;
  if (
    typeof store !== 'object' ||
    store === null ||
    methods.some((m) => typeof (store as Record<string, unknown>)[m] !== 'function')
  ) {
    fail('store', 'a knowledge store (load and save)', store);
  }
  if (namespace !== undefined && typeof namespace !== 'string')
    fail('namespace', 'a string', namespace);
  if (id !== undefined && typeof id !== 'string') fail('id', 'a string', id);
  if (now !== undefined && typeof now !== 'function') fail('now', 'a function', now);
  const { tokenizer } = fields;
  if (tokenizer !== undefined && (typeof tokenizer !== 'string' || !isKnownTokenizer(tokenizer))) {
    fail('tokenizer', 'a registered tokenizer name such as "o200k_base"', tokenizer);
  }
  return { options: fields as unknown as MemoryMcpServerOptions, more: rest };
};

/** The graph's resource, as the reference names it. */
const RESOURCE_URI = 'memory://knowledge-graph';

/** How many times a write is tried when other writers keep changing the graph under it. */
const WRITE_ATTEMPTS = 50;

const json = (value: unknown): string => JSON.stringify(value, null, 2);

const refused = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

const isConflict = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === 'CM_KNOWLEDGE_CONFLICT';

/**
 * An MCP server (the official SDK's `Server`, to connect to a transport) that serves the knowledge
 * graph kept in `store`: the reference memory server's nine tools with its names, schemas, results
 * and error texts (`create_entities`, `create_relations`, `add_observations`, `delete_entities`,
 * `delete_observations`, `delete_relations`, `read_graph`, `search_nodes`, `open_nodes`), and its
 * `memory://knowledge-graph` resource with update notifications.
 *
 * Unlike the reference, a deletion retires (the fact stays in the record's history with
 * `retiredAt`; reads show the facts in force), every write is conditional on the record's
 * revision and tried again on a conflict (two servers on one store lose no update), and every
 * argument is checked (a bad one is a tool error naming it; the server never throws).
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * const server = createMemoryMcpServer({ store: new InMemoryKnowledgeStore() });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export const createMemoryMcpServer = (options: MemoryMcpServerOptions): Server =>
  graphServer(readServerOptions(options).options, new GraphChanges());

/**
 * Tells every server of one graph in this process that a write changed it (the servers of an
 * HTTP endpoint's sessions share one), so that each notifies its own subscribed client.
 *
 * @internal
 */
export class GraphChanges {
  readonly #listeners = new Set<() => void>();
  /** Calls `listener` after each change, until the returned function is called. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/**
 * {@link createMemoryMcpServer} with checked options, telling `changes` of its writes.
 *
 * @internal
 */
export const graphServer = (options: MemoryMcpServerOptions, changes: GraphChanges): Server => {
  const { store, namespace, now = Date.now, id = MCP_GRAPH_ID, tokenizer = 'o200k_base' } = options;
  /** The tokens of a result's text (as a message's content: a bound on the text's own). */
  const count = (text: string): number =>
    countMessageTokens(tokenizer, userMessage(text), 'createMemoryMcpServer');
  const where = namespace === undefined ? {} : { namespace };
  const server = new Server(
    { name: 'conversation-memory', version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
      },
    },
  );
  const subscribed = new Set<string>();

  /**
   * The record as this server last loaded it, with the store's stamp of it when known. With a
   * store that stamps records (`store.stamp`: every store of this package), a call loads the
   * state only when the stamp moved (another server or session wrote, or the record was deleted
   * and made again): a read of an unchanged graph costs one small query, not the decoding of the
   * whole record, and what is derived from it (`graphInForce`, the search strings) is made once
   * per version. The stamp is taken before the load and kept only when the load is of the same
   * revision, so a save between the two costs one more load, never a stale read. After this
   * server's own save the next call loads. Without `stamp`, every call loads.
   */
  let cached:
    | {
        readonly state: KnowledgeState;
        readonly revision: number;
        readonly stamp: KnowledgeStamp | null | undefined;
      }
    | undefined;
  const sameStamp = (a: KnowledgeStamp | null, b: KnowledgeStamp | null | undefined): boolean =>
    a === null || b === null || b === undefined
      ? a === b
      : a.revision === b.revision && a.savedAt === b.savedAt;
  const current = async (): Promise<{
    readonly state: KnowledgeState;
    readonly revision: number;
  }> => {
    const stamp = store.stamp === undefined ? undefined : await store.stamp(id, where);
    if (cached !== undefined && stamp !== undefined && sameStamp(stamp, cached.stamp)) {
      return cached;
    }
    const loaded = await store.load(id, where);
    const revision = loaded?.revision ?? 0;
    const stamped = stamp !== undefined && (stamp?.revision ?? 0) === revision;
    cached = {
      state: loaded?.state ?? createKnowledge(),
      revision,
      stamp: stamped ? stamp : undefined,
    };
    return cached;
  };
  const read = async (): Promise<KnowledgeState> => (await current()).state;

  /** Applies `change` to the stored graph, again on a conflict; saves only when it changed. */
  const write = async <R>(change: (state: KnowledgeState, at: number) => GraphChange<R>) => {
    for (let attempt = 1; ; attempt++) {
      const { state: before, revision } = await current();
      const { state: changed, result } = change(before, now());
      if (changed === before) return result;
      const state = withinBounds(changed);
      try {
        await store.save(id, state, { ...where, expectedRevision: revision });
        // Its stamp is not known: the next call loads (a stamp read now could be of a record
        // deleted and made again since, at the same revision).
        cached = undefined;
      } catch (error) {
        if (isConflict(error) && attempt < WRITE_ATTEMPTS) continue;
        throw error;
      }
      changes.changed();
      return result;
    }
  };

  const graphResult = (graph: McpGraph): CallToolResult => ({
    content: [{ type: 'text', text: json(graph) }],
    structuredContent: { entities: graph.entities, relations: graph.relations },
  });
  /** What the reference answers a write with: the list, as text and under `key`. */
  const listed = (key: string, result: readonly unknown[]): CallToolResult => ({
    content: [{ type: 'text', text: json(result) }],
    structuredContent: { [key]: result },
  });
  const done = (message: string): CallToolResult => ({
    content: [{ type: 'text', text: message }],
    structuredContent: { success: true, message },
  });

  const tools: Record<string, (args: unknown) => Promise<CallToolResult>> = {
    create_entities: async (args) => {
      const entities = readArguments.create_entities(args);
      return listed('entities', await write((state, at) => createEntities(state, entities, at)));
    },
    create_relations: async (args) => {
      const relations = readArguments.relations('create_relations', args);
      return listed('relations', await write((s, at) => createRelations(s, relations, at)));
    },
    add_observations: async (args) => {
      const observations = readArguments.add_observations(args);
      return listed('results', await write((s, at) => addObservations(s, observations, at)));
    },
    delete_entities: async (args) => {
      const names = readArguments.names('delete_entities', 'entityNames', args);
      await write((state, at) => deleteEntities(state, names, at));
      return done('Entities deleted successfully');
    },
    delete_observations: async (args) => {
      const deletions = readArguments.delete_observations(args);
      await write((state, at) => deleteObservations(state, deletions, at));
      return done('Observations deleted successfully');
    },
    delete_relations: async (args) => {
      const relations = readArguments.relations('delete_relations', args);
      await write((state, at) => deleteRelations(state, relations, at));
      return done('Relations deleted successfully');
    },
    read_graph: async (args) => {
      const request = readArguments.page('read_graph', args);
      const graph = graphInForce(await read());
      return isPaged(request) ? graphPage(graph, request, count) : graphResult(graph);
    },
    search_nodes: async (args) => {
      const query = readArguments.query('search_nodes', args);
      const request = readArguments.page('search_nodes', args);
      const graph = searchNodes(await read(), query);
      return isPaged(request) ? graphPage(graph, request, count) : graphResult(graph);
    },
    list_entities: async (args) => {
      const request = readArguments.page('list_entities', args);
      const names = graphInForce(await read()).entities.map(({ name, entityType }) => ({
        name,
        entityType,
      }));
      const render = (page: readonly unknown[], nextCursor: string | undefined) =>
        json({ entities: page, ...(nextCursor === undefined ? {} : { nextCursor }) });
      const { page, nextCursor, text } = pageOf(names, request, render, count, (e) => e.name);
      return {
        content: [{ type: 'text', text }],
        structuredContent: { entities: page, ...(nextCursor === undefined ? {} : { nextCursor }) },
      };
    },
    recall: async (args) => {
      const query = readArguments.query('recall', args);
      const { limit, maxTokens } = readArguments.recall(args);
      const results = recallObservations(await read(), query, limit);
      const render = (page: readonly unknown[]) => json({ results: page });
      const { page, text } = pageOf(results, { limit, maxTokens }, render, count, (r) =>
        JSON.stringify(r.observation.slice(0, 40)),
      );
      return { content: [{ type: 'text', text }], structuredContent: { results: page } };
    },
    read_history: async () => {
      const history = graphHistory(await read());
      return {
        content: [{ type: 'text', text: json(history) }],
        structuredContent: { ...history },
      };
    },
    open_nodes: async (args) => {
      const names = readArguments.names('open_nodes', 'names', args);
      return graphResult(openNodes(await read(), names));
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...REFERENCE_TOOLS, ...EXTRA_TOOLS],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const run = Object.prototype.hasOwnProperty.call(tools, name) ? tools[name] : undefined;
    if (run === undefined) return refused(`MCP error -32602: Tool ${name} not found`);
    try {
      return await run(args);
    } catch (error) {
      if (error instanceof McpToolError) return refused(error.message);
      // A store that failed (unavailable, a damaged record): the client is told, the server lives.
      return refused(error instanceof Error ? error.message : String(error));
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        name: 'knowledge-graph',
        title: 'Knowledge Graph',
        uri: RESOURCE_URI,
        description: 'The full knowledge graph with all entities and relations',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== RESOURCE_URI) {
      throw new McpToolError(`Resource ${request.params.uri} not found`);
    }
    return {
      contents: [
        { uri: RESOURCE_URI, mimeType: 'application/json', text: json(graphInForce(await read())) },
      ],
    };
  });
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const stop = changes.listen(() => {
    if (subscribed.has(RESOURCE_URI)) {
      void server.sendResourceUpdated({ uri: RESOURCE_URI }).catch(() => undefined);
    }
  });
  server.onclose = () => stop();
  return server;
};
