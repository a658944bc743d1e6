/**
 * The nine tools of the MCP reference memory server (`@modelcontextprotocol/server-memory`), as
 * its `tools/list` shows them: names, titles, descriptions, input and output JSON Schemas and
 * annotations, so that a client written for it sees the same tools here (compared with the real
 * server's listing by test/mcp/mcpReference.test.ts).
 */

/** A JSON Schema object, as `tools/list` carries it. */
type Schema = { readonly [key: string]: unknown };

const DRAFT = 'http://json-schema.org/draft-07/schema#';

const entity = (closed: boolean): Schema => ({
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The name of the entity' },
    entityType: { type: 'string', description: 'The type of the entity' },
    observations: {
      type: 'array',
      items: { type: 'string' },
      description: 'An array of observation contents associated with the entity',
    },
  },
  required: ['name', 'entityType', 'observations'],
  ...(closed ? { additionalProperties: false } : {}),
});

const relation = (closed: boolean): Schema => ({
  type: 'object',
  properties: {
    from: { type: 'string', description: 'The name of the entity where the relation starts' },
    to: { type: 'string', description: 'The name of the entity where the relation ends' },
    relationType: { type: 'string', description: 'The type of the relation' },
  },
  required: ['from', 'to', 'relationType'],
  ...(closed ? { additionalProperties: false } : {}),
});

const input = (properties: Schema, required: readonly string[]): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  $schema: DRAFT,
});

const output = (properties: Schema, required: readonly string[]): Schema => ({
  type: 'object',
  properties,
  required,
  $schema: DRAFT,
  additionalProperties: false,
});

const list = (items: Schema, description?: string): Schema => ({
  type: 'array',
  items,
  ...(description === undefined ? {} : { description }),
});

const writes = (destructive: boolean) => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: destructive,
  openWorldHint: false,
});
const READS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const done = output({ success: { type: 'boolean' }, message: { type: 'string' } }, [
  'success',
  'message',
]);
const graph = output({ entities: list(entity(true)), relations: list(relation(true)) }, [
  'entities',
  'relations',
]);

/**
 * One tool as `tools/list` describes it.
 *
 * @internal
 */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly outputSchema?: Schema;
  readonly annotations: Schema;
  readonly execution?: Schema;
}

const tool = (definition: ToolDefinition): ToolDefinition => ({
  ...definition,
  execution: { taskSupport: 'forbidden' },
});

/** The optional arguments of a paged read (none of them given: the reference's whole answer). */
export const PAGE_ARGUMENTS: Schema = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: 10_000,
    description: 'At most this many items (entities, then relations) in the answer',
  },
  cursor: {
    type: 'string',
    description: 'Where to go on from: the nextCursor of the previous answer',
  },
  maxTokens: {
    type: 'integer',
    minimum: 1,
    description: "The answer's text never counts more tokens than this (the server's tokenizer)",
  },
};

/** `tool` with the paged read's arguments, and `nextCursor` in its answer. */
const paged = (definition: ToolDefinition): ToolDefinition => {
  const input = definition.inputSchema as { properties: Schema };
  const output = definition.outputSchema as { properties: Schema };
  return {
    ...definition,
    inputSchema: {
      ...definition.inputSchema,
      properties: { ...input.properties, ...PAGE_ARGUMENTS },
    },
    outputSchema: {
      ...definition.outputSchema,
      properties: {
        ...output.properties,
        nextCursor: {
          type: 'string',
          description: 'Present when more is left: pass it as cursor to read on',
        },
      },
    },
  };
};

/**
 * The reference's nine tools, in its order.
 *
 * @internal
 */
export const REFERENCE_TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'create_entities',
    title: 'Create Entities',
    description: 'Create multiple new entities in the knowledge graph',
    inputSchema: input({ entities: list(entity(false)) }, ['entities']),
    outputSchema: output({ entities: list(entity(true)) }, ['entities']),
    annotations: writes(false),
  }),
  tool({
    name: 'create_relations',
    title: 'Create Relations',
    description:
      'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
    inputSchema: input({ relations: list(relation(false)) }, ['relations']),
    outputSchema: output({ relations: list(relation(true)) }, ['relations']),
    annotations: writes(false),
  }),
  tool({
    name: 'add_observations',
    title: 'Add Observations',
    description: 'Add new observations to existing entities in the knowledge graph',
    inputSchema: input(
      {
        observations: list({
          type: 'object',
          properties: {
            entityName: {
              type: 'string',
              description: 'The name of the entity to add the observations to',
            },
            contents: {
              type: 'array',
              items: { type: 'string' },
              description: 'An array of observation contents to add',
            },
          },
          required: ['entityName', 'contents'],
        }),
      },
      ['observations'],
    ),
    outputSchema: output(
      {
        results: list({
          type: 'object',
          properties: {
            entityName: { type: 'string' },
            addedObservations: { type: 'array', items: { type: 'string' } },
          },
          required: ['entityName', 'addedObservations'],
          additionalProperties: false,
        }),
      },
      ['results'],
    ),
    annotations: writes(false),
  }),
  tool({
    name: 'delete_entities',
    title: 'Delete Entities',
    description: 'Delete multiple entities and their associated relations from the knowledge graph',
    inputSchema: input(
      { entityNames: list({ type: 'string' }, 'An array of entity names to delete') },
      ['entityNames'],
    ),
    outputSchema: done,
    annotations: writes(true),
  }),
  tool({
    name: 'delete_observations',
    title: 'Delete Observations',
    description: 'Delete specific observations from entities in the knowledge graph',
    inputSchema: input(
      {
        deletions: list({
          type: 'object',
          properties: {
            entityName: {
              type: 'string',
              description: 'The name of the entity containing the observations',
            },
            observations: {
              type: 'array',
              items: { type: 'string' },
              description: 'An array of observations to delete',
            },
          },
          required: ['entityName', 'observations'],
        }),
      },
      ['deletions'],
    ),
    outputSchema: done,
    annotations: writes(true),
  }),
  tool({
    name: 'delete_relations',
    title: 'Delete Relations',
    description: 'Delete multiple relations from the knowledge graph',
    inputSchema: input({ relations: list(relation(false), 'An array of relations to delete') }, [
      'relations',
    ]),
    outputSchema: done,
    annotations: writes(true),
  }),
  paged({
    name: 'read_graph',
    title: 'Read Graph',
    description: 'Read the entire knowledge graph',
    inputSchema: input({}, []),
    outputSchema: graph,
    annotations: READS,
    execution: { taskSupport: 'forbidden' },
  }),
  paged({
    name: 'search_nodes',
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    inputSchema: input(
      {
        query: {
          type: 'string',
          description:
            'The search query to match against entity names, types, and observation content',
        },
      },
      ['query'],
    ),
    outputSchema: graph,
    annotations: READS,
    execution: { taskSupport: 'forbidden' },
  }),
  tool({
    name: 'open_nodes',
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    inputSchema: input(
      { names: list({ type: 'string' }, 'An array of entity names to retrieve') },
      ['names'],
    ),
    outputSchema: graph,
    annotations: READS,
  }),
];

const dated = (properties: Schema, required: readonly string[]): Schema => ({
  type: 'object',
  properties: {
    ...properties,
    recordedAt: { type: 'number', description: 'When it was recorded (ms since the epoch)' },
    retiredAt: {
      type: ['number', 'null'],
      description: 'When it was deleted (ms since the epoch), or null while in force',
    },
  },
  required: [...required, 'recordedAt', 'retiredAt'],
  additionalProperties: false,
});

/**
 * The tools beyond the reference's: a names-only listing, a ranked search, and the history.
 *
 * @internal
 */
export const EXTRA_TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'list_entities',
    title: 'List Entities',
    description:
      'List the names and types of the entities in the knowledge graph, a page at a time (no observations: cheap to read)',
    inputSchema: input(PAGE_ARGUMENTS, []),
    outputSchema: output(
      {
        entities: list({
          type: 'object',
          properties: { name: { type: 'string' }, entityType: { type: 'string' } },
          required: ['name', 'entityType'],
          additionalProperties: false,
        }),
        nextCursor: { type: 'string' },
      },
      ['entities'],
    ),
    annotations: READS,
  }),
  tool({
    name: 'recall',
    title: 'Recall',
    description:
      'Find the observations that best answer a question (BM25 ranking with stemming, best first), with their entities',
    inputSchema: input(
      {
        query: { type: 'string', description: 'The question or words to look for' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'At most this many (default 10)',
        },
        maxTokens: PAGE_ARGUMENTS['maxTokens'],
      },
      ['query'],
    ),
    outputSchema: output(
      {
        results: list({
          type: 'object',
          properties: {
            entityName: { type: 'string' },
            entityType: { type: 'string' },
            observation: { type: 'string' },
            score: { type: 'number' },
          },
          required: ['entityName', 'entityType', 'observation', 'score'],
          additionalProperties: false,
        }),
      },
      ['results'],
    ),
    annotations: READS,
  }),
  tool({
    name: 'read_history',
    title: 'Read History',
    description:
      'Read the knowledge graph with what was deleted: every entity, observation and relation with when it was recorded and retired',
    inputSchema: input({}, []),
    outputSchema: output(
      {
        entities: list(
          dated(
            {
              name: { type: 'string' },
              entityType: { type: 'string' },
              observations: list(dated({ text: { type: 'string' } }, ['text'])),
            },
            ['name', 'entityType', 'observations'],
          ),
        ),
        relations: list(
          dated(
            { from: { type: 'string' }, to: { type: 'string' }, relationType: { type: 'string' } },
            ['from', 'to', 'relationType'],
          ),
        ),
      },
      ['entities', 'relations'],
    ),
    annotations: READS,
  }),
];
