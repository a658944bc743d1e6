/**
 * The MCP memory server (issue #33, first slice), against the real reference server
 * (`@modelcontextprotocol/server-memory`, run as a child process over stdio) with the SDK's real
 * client: the same nine tools listed, the same results and error texts for the same calls, the
 * same `memory.jsonl` bytes; deletions retire; bad arguments are tool errors naming the field;
 * two servers on one store lose no update; the resource's update notification.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { either as E } from 'fp-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logEntries, writeLogConcurrently } from '../support/mcpLogWrites';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { SqliteKnowledgeStore } from 'conversation-memory/node';
import {
  createMemoryMcpServer,
  formatReferenceJsonl,
  graphInForce,
  knowledgeOfGraph,
  MCP_GRAPH_ID,
  parseReferenceJsonl,
} from 'conversation-memory/mcp';

const REFERENCE = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);

/** `value`, or a failed test when it is missing. */
const must = <T>(value: T | null | undefined): T => {
  if (value === null || value === undefined) throw new Error('missing');
  return value;
};

type Call = readonly [name: string, args: Record<string, unknown>];

/** Calls that cover every tool, each dedupe rule and the reference's own error texts. */
const SCRIPT: readonly Call[] = [
  ['add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] }],
  [
    'create_entities',
    { entities: [{ name: 'Ada', entityType: 'person', observations: ['likes tea', 'likes tea'] }] },
  ],
  [
    'create_entities',
    {
      entities: [
        { name: 'Ada', entityType: 'robot', observations: [] },
        { name: 'Bob', entityType: 'person', observations: ['plays chess'] },
        { name: 'Lisbon', entityType: 'city', observations: [] },
      ],
    },
  ],
  ['create_relations', { relations: [{ from: 'Ada', to: 'Ghost', relationType: 'knows' }] }],
  [
    'create_relations',
    {
      relations: [
        { from: 'Ada', to: 'Bob', relationType: 'knows' },
        { from: 'Ada', to: 'Bob', relationType: 'knows' },
        { from: 'Bob', to: 'Lisbon', relationType: 'lives in' },
      ],
    },
  ],
  ['create_relations', { relations: [{ from: 'Ada', to: 'Bob', relationType: 'knows' }] }],
  [
    'add_observations',
    {
      observations: [
        { entityName: 'Ada', contents: ['likes tea', 'codes', 'codes'] },
        { entityName: 'Ada', contents: ['codes', 'sails'] },
      ],
    },
  ],
  [
    'add_observations',
    {
      observations: [
        { entityName: 'Bob', contents: ['never added'] },
        { entityName: 'Ghost', contents: ['x'] },
      ],
    },
  ],
  ['search_nodes', { query: 'TEA' }],
  ['search_nodes', { query: 'city' }],
  ['search_nodes', { query: 'nothing matches this' }],
  ['open_nodes', { names: ['Bob', 'Nobody'] }],
  [
    'delete_observations',
    {
      deletions: [
        { entityName: 'Nobody', observations: ['x'] },
        { entityName: 'Ada', observations: ['codes', 'not there'] },
      ],
    },
  ],
  ['delete_relations', { relations: [{ from: 'Ada', to: 'Ghost', relationType: 'knows' }] }],
  ['read_graph', {}],
  ['delete_entities', { entityNames: ['Bob', 'Nobody'] }],
  ['create_entities', { entities: [{ name: 'Bob', entityType: 'cat', observations: ['naps'] }] }],
  ['read_graph', {}],
  // The reference README's own examples.
  [
    'create_entities',
    {
      entities: [
        { name: 'John_Smith', entityType: 'person', observations: ['Speaks fluent Spanish'] },
        { name: 'Anthropic', entityType: 'organization', observations: [] },
      ],
    },
  ],
  [
    'create_relations',
    { relations: [{ from: 'John_Smith', to: 'Anthropic', relationType: 'works_at' }] },
  ],
  [
    'add_observations',
    {
      observations: [
        {
          entityName: 'John_Smith',
          contents: ['Speaks fluent Spanish', 'Graduated in 2019', 'Prefers morning meetings'],
        },
      ],
    },
  ],
  ['open_nodes', { names: ['John_Smith'] }],
  ['search_nodes', { query: 'spanish' }],
  ['no_such_tool', {}],
];

const connectReference = async (file: string): Promise<Client> => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [REFERENCE],
      env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: file },
      stderr: 'ignore',
    }),
  );
  return client;
};

const connectOurs = async (server: ReturnType<typeof createMemoryMcpServer>): Promise<Client> => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
};

const run = async (client: Client, calls: readonly Call[]) => {
  const results: unknown[] = [];
  for (const [name, args] of calls) results.push(await client.callTool({ name, arguments: args }));
  return results;
};

describe('MCP memory server, beside the reference memory server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-'));
  const referenceFile = join(dir, 'reference.jsonl');
  let reference: Client;
  let ours: Client;
  const store = new InMemoryKnowledgeStore();

  beforeAll(async () => {
    reference = await connectReference(referenceFile);
    ours = await connectOurs(createMemoryMcpServer({ store }));
  }, 30_000);
  afterAll(async () => {
    await reference.close();
    await ours.close();
  });

  it('lists the nine tools as the reference does, then its own', async () => {
    const [theirs, mine] = [await reference.listTools(), await ours.listTools()];
    expect(theirs.tools.map((t) => t.name)).toHaveLength(9);
    expect(mine.tools.slice(9).map((t) => t.name)).toEqual([
      'list_entities',
      'recall',
      'read_history',
    ]);
    // read_graph and search_nodes take optional limit, cursor and maxTokens (and may answer
    // nextCursor): without them, the reference's tools exactly.
    const withoutPages = mine.tools.slice(0, 9).map((tool) => {
      if (tool.name !== 'read_graph' && tool.name !== 'search_nodes') return tool;
      const { limit, cursor, maxTokens, ...input } = tool.inputSchema.properties ?? {};
      expect([limit, cursor, maxTokens].every((p) => p !== undefined)).toBe(true);
      const { nextCursor, ...output } = tool.outputSchema?.properties ?? {};
      expect(nextCursor).toBeDefined();
      return {
        ...tool,
        inputSchema: { ...tool.inputSchema, properties: input },
        outputSchema: { ...tool.outputSchema, properties: output },
      };
    });
    expect(withoutPages).toEqual(theirs.tools);
    expect(await ours.listResources()).toEqual(await reference.listResources());
  });

  it('answers every call of a script as the reference does, and keeps the same file', async () => {
    const theirs = await run(reference, SCRIPT);
    const mine = await run(ours, SCRIPT);
    for (const [i, call] of SCRIPT.entries()) {
      expect(mine[i], `${call[0]} ${JSON.stringify(call[1])}`).toEqual(theirs[i]);
    }
    // The errors are the reference's own texts.
    expect(mine[0]).toEqual({
      content: [{ type: 'text', text: 'Entity with name Nobody not found' }],
      isError: true,
    });
    const loaded = await store.load(MCP_GRAPH_ID);
    // A call that failed on its second item wrote nothing, not even to the history.
    expect(JSON.stringify(must(loaded).state)).not.toContain('never added');
    expect(formatReferenceJsonl(graphInForce(must(loaded).state))).toBe(
      readFileSync(referenceFile, 'utf8'),
    );
    expect(await ours.readResource({ uri: 'memory://knowledge-graph' })).toEqual(
      await reference.readResource({ uri: 'memory://knowledge-graph' }),
    );
  });

  it('retires what is deleted: the history keeps it with retiredAt', async () => {
    const { state } = must(await store.load(MCP_GRAPH_ID));
    const bobs = state.entities.filter((e) => e.name === 'Bob');
    expect(bobs.map((b) => [b.type, b.retiredBy])).toEqual([
      ['person', 'forgotten'],
      ['cat', null],
    ]);
    expect(must(bobs[0]).retiredAt).toBeTypeOf('number');
    const ghost = must(state.relations.find((r) => r.object === 'Ghost'));
    expect(ghost.retiredBy).toBe('forgotten');
    const ada = must(state.entities.find((e) => e.name === 'Ada'));
    // "codes" was added twice in one call (as the reference does); both are retired.
    expect(ada.attributes.filter((a) => a.value === 'codes').map((a) => a.retiredBy)).toEqual([
      'forgotten',
      'forgotten',
    ]);
  });

  it('reads the reference file as it is and writes it back byte for byte', () => {
    const file = readFileSync(referenceFile, 'utf8');
    expect(file.length).toBeGreaterThan(50);
    const graph = parseReferenceJsonl(file);
    if (E.isLeft(graph)) throw graph.left;
    expect(formatReferenceJsonl(graphInForce(knowledgeOfGraph(graph.right, 0)))).toBe(file);
    // Blank lines and lines of other types are skipped, as the reference does.
    const padded = `\n${file.split('\n').join('\n\n')}\n{"type":"other","x":1}\n`;
    const again = parseReferenceJsonl(padded);
    expect(E.isRight(again) && formatReferenceJsonl(again.right)).toBe(file);
  });

  it('names the line and field of a damaged file', () => {
    const bad = parseReferenceJsonl(
      '{"type":"entity","name":"A","entityType":"t","observations":[]}\nnot json\n{"type":"relation","from":"A","to":3,"relationType":"r"}',
    );
    expect(E.isLeft(bad) && bad.left.problems).toEqual([
      expect.stringMatching(/^line 2: not JSON/),
      'line 3.to: must be a string of at most 100000 characters, received 3',
    ]);
  });
});

describe('MCP memory server, its own rules', () => {
  it('refuses bad options with a MemoryArgumentError naming the field', () => {
    const store = new InMemoryKnowledgeStore();
    const refused = (options: unknown) => {
      try {
        createMemoryMcpServer(options as Parameters<typeof createMemoryMcpServer>[0]);
      } catch (error) {
        expect((error as { code?: string }).code).toBe('CM_ARGUMENT');
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused(undefined)).toMatch(/options must be an object with a store/);
    expect(refused({ store: {} })).toMatch(
      /options\.store must be a knowledge store \(load and save\), received an object/,
    );
    expect(refused({ store, namespace: 3 })).toMatch(
      /options\.namespace must be a string, received 3/,
    );
    expect(refused({ store, nameSpace: 'a' })).toMatch(/nameSpace/);
  });

  it('refuses bad arguments with a tool error naming the field, and keeps serving', async () => {
    const client = await connectOurs(
      createMemoryMcpServer({ store: new InMemoryKnowledgeStore() }),
    );
    const text = async (name: string, args: unknown) => {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      return (result.content as { text: string }[])[0]?.text ?? '';
    };
    expect(await text('create_entities', { entities: [{ name: 'A', entityType: 3 }] })).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool create_entities: entities[0].entityType must be a string, received 3',
    );
    expect(await text('create_entities', {})).toMatch(
      /entities must be an array, received undefined$/,
    );
    expect(await text('search_nodes', { query: 'x'.repeat(100_001) })).toMatch(
      /query must be at most 100000 characters long/,
    );
    expect(await text('open_nodes', { names: Array.from({ length: 10_001 }, () => 'a') })).toMatch(
      /names must be an array of at most 10000 items/,
    );
    expect(await text('add_observations', { observations: [null] })).toMatch(
      /observations\[0\] must be an object, received null$/,
    );
    // Still serving, and nothing was written.
    const graph = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(graph.structuredContent).toEqual({ entities: [], relations: [] });
    await client.close();
  });

  it("keeps a stored state's bounds: old retired observations leave first, too many in force is an error", async () => {
    const store = new InMemoryKnowledgeStore();
    const client = await connectOurs(createMemoryMcpServer({ store }));
    const notes = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `note ${from + i}`);
    await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'Big', entityType: 't', observations: notes(0, 1000) }] },
    });
    const over = await client.callTool({
      name: 'add_observations',
      arguments: { observations: [{ entityName: 'Big', contents: ['one more'] }] },
    });
    expect(over.isError).toBe(true);
    expect((over.content as { text: string }[])[0]?.text).toBe(
      'Entity with name Big would hold more than 1000 observations',
    );
    await client.callTool({
      name: 'delete_observations',
      arguments: { deletions: [{ entityName: 'Big', observations: notes(0, 10) }] },
    });
    const added = await client.callTool({
      name: 'add_observations',
      arguments: { observations: [{ entityName: 'Big', contents: notes(1000, 10) }] },
    });
    expect(added.isError).toBeUndefined();
    const big = must(await store.load(MCP_GRAPH_ID)).state.entities[0];
    // The ten retired observations left the history to make room; the 1,000 in force stayed.
    expect(big?.attributes).toHaveLength(1000);
    expect(big?.attributes.every((a) => a.retiredAt === null)).toBe(true);
    await client.close();
  });

  it('a store that fails is a tool error with its message, and the server keeps serving', async () => {
    const store = new InMemoryKnowledgeStore();
    const client = await connectOurs(createMemoryMcpServer({ store }));
    await store.close();
    for (const [name, args] of [
      ['read_graph', {}],
      ['create_entities', { entities: [{ name: 'A', entityType: 't', observations: [] }] }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect((result.content as { text: string }[])[0]?.text).toMatch(/closed/);
    }
    expect((await client.listTools()).tools).toHaveLength(12);
    await client.close();
  });

  it('two servers on one store lose no update (revisions, retried on conflict)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-sqlite-'));
    const path = join(dir, 'graph.db');
    const stores = [new SqliteKnowledgeStore({ path }), new SqliteKnowledgeStore({ path })];
    const clients = await Promise.all(
      stores.map((store) => connectOurs(createMemoryMcpServer({ store, namespace: 'team' }))),
    );
    await writeLogConcurrently(clients, 40);
    const read = await must(clients[1]).callTool({
      name: 'open_nodes',
      arguments: { names: ['Log'] },
    });
    const [log] = (read.structuredContent as { entities: { observations: string[] }[] }).entities;
    expect([...must(log).observations].sort()).toEqual(logEntries(40));
    for (const client of clients) await client.close();
    for (const store of stores) await store.close();
  });

  it('loads the record only when its stamp moved: another server’s write, a delete and a new record at the same revision are all seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-stamp-'));
    const path = join(dir, 'graph.db');
    let now = 1_000_000;
    const clock = { now: () => now };
    const ours = new SqliteKnowledgeStore({ path, ...clock });
    const other = new SqliteKnowledgeStore({ path, ...clock });
    // The real store, its loads counted.
    let loads = 0;
    const counted = new Proxy(ours, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        return key === 'load' ? (...args: unknown[]) => (loads++, method(...args)) : method;
      },
    });
    const client = await connectOurs(createMemoryMcpServer({ store: counted }));
    const writer = await connectOurs(createMemoryMcpServer({ store: other }));
    const names = async () =>
      (
        (await client.callTool({ name: 'read_graph', arguments: {} })).structuredContent as {
          entities: { name: string }[];
        }
      ).entities.map((e) => e.name);
    const entity = (name: string) => ({
      name: 'create_entities',
      arguments: { entities: [{ name, entityType: 't', observations: [] }] },
    });
    await writer.callTool(entity('Ada'));
    expect(await names()).toEqual(['Ada']);
    expect(await names()).toEqual(['Ada']);
    expect(await names()).toEqual(['Ada']);
    expect(loads).toBe(1); // one load, then stamps only
    // Erased and written again: revision 1, as the record this server holds, but a later save.
    expect(await other.delete(MCP_GRAPH_ID)).toBe(true);
    now += 1;
    await writer.callTool(entity('Cleo'));
    expect(await names()).toEqual(['Cleo']);
    expect(loads).toBe(2);
    now += 1;
    await writer.callTool(entity('Bob'));
    expect(await names()).toEqual(['Cleo', 'Bob']);
    expect(await other.delete(MCP_GRAPH_ID)).toBe(true);
    expect(await names()).toEqual([]);
    // This server's own write: the next read loads what was saved.
    await client.callTool(entity('Dan'));
    expect(await names()).toEqual(['Dan']);
    expect(await names()).toEqual(['Dan']);
    await client.close();
    await writer.close();
    await ours.close();
    await other.close();
  });

  it('notifies a subscriber of memory://knowledge-graph when a write changes it', async () => {
    const client = await connectOurs(
      createMemoryMcpServer({ store: new InMemoryKnowledgeStore() }),
    );
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'A', entityType: 't', observations: [] }] },
    });
    expect(updates).toEqual([]);
    await client.subscribeResource({ uri: 'memory://knowledge-graph' });
    await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'B', entityType: 't', observations: [] }] },
    });
    // A write that changes nothing (B exists) sends nothing.
    await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'B', entityType: 't', observations: [] }] },
    });
    await client.ping();
    expect(updates).toEqual(['memory://knowledge-graph']);
    await client.close();
  });
});
