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
import { createKnowledge, describeValue, MemoryArgumentError, readOptionFields } from '../library';
import type { KnowledgeState } from '../model/knowledge';
import type { KnowledgeStore } from '../stores/knowledge/types';
import {
  addObservations,
  createEntities,
  createRelations,
  deleteEntities,
  deleteObservations,
  deleteRelations,
  type GraphChange,
} from './graph/graphChanges';
import { openNodes, searchNodes } from './graph/graphReads';
import { graphInForce, MCP_GRAPH_ID, type McpGraph } from './graph/mcpGraph';
import { McpToolError } from './mcpErrors';
import { readArguments } from './readToolArguments';
import { REFERENCE_TOOLS } from './referenceTools';

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
}

const API = 'createMemoryMcpServer';

/** The options, checked: a misspelled key or a value of the wrong kind is refused, named. */
const readServerOptions = (options: unknown): MemoryMcpServerOptions => {
  if (options === undefined) {
    throw new MemoryArgumentError(
      API,
      'options must be an object with a store, received undefined',
    );
  }
  const fields = readOptionFields(options, ['store', 'namespace', 'id', 'now'], API, {
    example: '{ store: new InMemoryKnowledgeStore() }',
  });
  const { store, namespace, id, now } = fields;
  const fail = (field: string, must: string, value: unknown): never => {
    throw new MemoryArgumentError(
      API,
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
  return fields as MemoryMcpServerOptions;
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
export const createMemoryMcpServer = (options: MemoryMcpServerOptions): Server => {
  const { store, namespace, now = Date.now, id = MCP_GRAPH_ID } = readServerOptions(options);
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

  const read = async (): Promise<KnowledgeState> =>
    (await store.load(id, where))?.state ?? createKnowledge();

  /** Applies `change` to the stored graph, again on a conflict; saves only when it changed. */
  const write = async <R>(change: (state: KnowledgeState, at: number) => GraphChange<R>) => {
    for (let attempt = 1; ; attempt++) {
      const loaded = await store.load(id, where);
      const before = loaded?.state ?? createKnowledge();
      const { state, result } = change(before, now());
      if (state === before) return result;
      try {
        await store.save(id, state, { ...where, expectedRevision: loaded?.revision ?? 0 });
      } catch (error) {
        if (isConflict(error) && attempt < WRITE_ATTEMPTS) continue;
        throw error;
      }
      if (subscribed.has(RESOURCE_URI)) {
        await server.sendResourceUpdated({ uri: RESOURCE_URI }).catch(() => undefined);
      }
      return result;
    }
  };

  const graphResult = (graph: McpGraph): CallToolResult => ({
    content: [{ type: 'text', text: json(graph) }],
    structuredContent: { entities: graph.entities, relations: graph.relations },
  });
  const done = (message: string): CallToolResult => ({
    content: [{ type: 'text', text: message }],
    structuredContent: { success: true, message },
  });

  const tools: Record<string, (args: unknown) => Promise<CallToolResult>> = {
    create_entities: async (args) => {
      const entities = readArguments.create_entities(args);
      const result = await write((state, at) => createEntities(state, entities, at));
      return {
        content: [{ type: 'text', text: json(result) }],
        structuredContent: { entities: result },
      };
    },
    create_relations: async (args) => {
      const relations = readArguments.relations('create_relations', args);
      const result = await write((state, at) => createRelations(state, relations, at));
      return {
        content: [{ type: 'text', text: json(result) }],
        structuredContent: { relations: result },
      };
    },
    add_observations: async (args) => {
      const observations = readArguments.add_observations(args);
      const result = await write((state, at) => addObservations(state, observations, at));
      return {
        content: [{ type: 'text', text: json(result) }],
        structuredContent: { results: result },
      };
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
    read_graph: async () => graphResult(graphInForce(await read())),
    search_nodes: async (args) => {
      const query = readArguments.query(args);
      return graphResult(searchNodes(await read(), query));
    },
    open_nodes: async (args) => {
      const names = readArguments.names('open_nodes', 'names', args);
      return graphResult(openNodes(await read(), names));
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...REFERENCE_TOOLS] }));
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
  return server;
};
