/**
 * The MCP server's benchmark (run by `npm run bench`; issue #33): what its reads cost in tokens,
 * and each tool's latency.
 *
 * 1. Tokens (o200k_base, the text a client passes to its model) on a generated graph of 150
 *    entities and 800 observations, the size of the reference server's issue: `read_graph` in the
 *    reference's shape (its text is the reference's, byte for byte) against `list_entities` and a
 *    `search_nodes` page with `maxTokens: 2000`. Goal: every budgeted read within its budget.
 * 2. Latency per call, median of 21 calls, through the SDK's client over its in-memory transport
 *    (the protocol's cost included), at 1,000 and 100,000 observations (10 per entity), on the
 *    in-memory knowledge store (the `.jsonl` store's) and on SQLite. Goal: `search_nodes` under
 *    5 ms at 100,000 observations.
 *
 * The observations: fixed-seed sentences of 8 to 16 words from a 2,000-word vocabulary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type * as Mcp from '../src/entries/integrations/mcp';
import type * as Knowledge from '../src/entries/knowledge';
import type * as Node from '../src/entries/integrations/node';
import type * as Tokens from '../src/entries/tokens';
import type * as Root from '../src/entries/index';
import { medianOf } from './stats';

const DIST = process.env['BENCH_DIST'] === '1';
const root = new URL('../', import.meta.url);
const load = async <T>(dist: string, source: string): Promise<T> =>
  (await import(DIST ? new URL(dist, root).href : source)) as T;
const mcp = await load<typeof Mcp>('dist/mcp.js', '../src/entries/integrations/mcp');
const knowledge = await load<typeof Knowledge>('dist/knowledge.js', '../src/entries/knowledge');
const node = await load<typeof Node>('dist/node.js', '../src/entries/integrations/node');
const tokens = await load<typeof Tokens>('dist/tokens.js', '../src/entries/tokens');
const root_ = await load<typeof Root>('dist/index.js', '../src/entries/index');

const count = (text: string): number =>
  tokens.countMessageTokens('o200k_base', root_.userMessage(text), 'bench');

/** mulberry32 */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const next = random(33);
const WORDS = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
const sentence = () =>
  Array.from(
    { length: 8 + Math.floor(next() * 9) },
    () => WORDS[Math.floor(next() * WORDS.length)],
  ).join(' ');
const TYPES = ['person', 'project', 'place', 'organization', 'tool'];

/** `entities` entities with `observations` observations in all, and a relation per entity. */
const graph = (entities: number, observations: number) => {
  const list = Array.from({ length: entities }, (_, i) => ({
    name: `Entity ${i}`,
    entityType: TYPES[i % TYPES.length] as string,
    observations: [] as string[],
  }));
  for (let i = 0; i < observations; i++) list[i % entities]?.observations.push(sentence());
  const relations = list.slice(1).map((e, i) => ({
    from: e.name,
    to: `Entity ${Math.floor(next() * (i + 1))}`,
    relationType: 'relates to',
  }));
  return { entities: list, relations };
};

const connect = async (server: ReturnType<typeof mcp.createMemoryMcpServer>) => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(a);
  return client;
};

const textOf = (result: unknown): string =>
  (result as { content?: { text: string }[] }).content?.[0]?.text ?? '';

const fill = async (client: Client, data: ReturnType<typeof graph>) => {
  for (let i = 0; i < data.entities.length; i += 500) {
    await client.callTool({
      name: 'create_entities',
      arguments: { entities: data.entities.slice(i, i + 500) },
    });
  }
  await client.callTool({ name: 'create_relations', arguments: { relations: data.relations } });
};

// 1. Tokens.
{
  const data = graph(150, 800);
  const client = await connect(
    mcp.createMemoryMcpServer({ store: new knowledge.InMemoryKnowledgeStore() }),
  );
  await fill(client, data);
  const whole = textOf(await client.callTool({ name: 'read_graph', arguments: {} }));
  const names = textOf(await client.callTool({ name: 'list_entities', arguments: {} }));
  const page = textOf(
    await client.callTool({
      name: 'search_nodes',
      arguments: { query: 'entity', maxTokens: 2_000 },
    }),
  );
  const [w, n, p] = [count(whole), count(names), count(page)];
  console.log('\nMCP server: tokens of a read (o200k_base), 150 entities and 800 observations\n');
  console.log('| read | tokens | within its budget |');
  console.log('|---|---|---|');
  console.log(`| read_graph (the reference's answer) | ${w.toLocaleString('en')} | (none) |`);
  console.log(`| list_entities | ${n.toLocaleString('en')} | (none) |`);
  console.log(
    `| search_nodes, maxTokens 2,000 (first page) | ${p.toLocaleString('en')} | ${p <= 2_000 ? 'PASS' : 'FAIL'} |`,
  );
  await client.close();
}

// 2. Latency.
const time = async (call: () => Promise<unknown>): Promise<number> => {
  for (let i = 0; i < 3; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    await call();
    samples.push(performance.now() - t0);
  }
  return medianOf(samples).median;
};

console.log('\nMCP server: ms per call (median of 21, through the SDK client)\n');
console.log(
  '| store | observations | search_nodes | search_nodes, maxTokens 2,000 | list_entities, limit 100 | open_nodes | recall | read_graph | add_observations |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-bench-'));
let goal = true;
for (const [label, makeStore] of [
  ['in memory', () => new knowledge.InMemoryKnowledgeStore()],
  ['SQLite', () => new node.SqliteKnowledgeStore({ path: join(dir, `g${next()}.db`) })],
] as const) {
  for (const observations of [1_000, 100_000]) {
    const store = makeStore();
    const client = await connect(mcp.createMemoryMcpServer({ store }));
    await fill(client, graph(observations / 10, observations));
    const word = WORDS[7] as string;
    let n = 0;
    const cells = [
      await time(() =>
        client.callTool({ name: 'search_nodes', arguments: { query: 'Entity 42' } }),
      ),
      await time(() =>
        client.callTool({ name: 'search_nodes', arguments: { query: word, maxTokens: 2_000 } }),
      ),
      await time(() => client.callTool({ name: 'list_entities', arguments: { limit: 100 } })),
      await time(() =>
        client.callTool({ name: 'open_nodes', arguments: { names: ['Entity 3', 'Entity 4'] } }),
      ),
      await time(() => client.callTool({ name: 'recall', arguments: { query: `${word} w1e` } })),
      await time(() => client.callTool({ name: 'read_graph', arguments: {} })),
      await time(() =>
        client.callTool({
          name: 'add_observations',
          arguments: { observations: [{ entityName: 'Entity 5', contents: [`note ${n++}`] }] },
        }),
      ),
    ];
    if (label === 'in memory' && observations === 100_000 && !((cells[0] ?? Infinity) < 5))
      goal = false;
    console.log(
      `| ${label} | ${observations.toLocaleString('en')} | ${cells.map((ms) => ms.toFixed(ms < 10 ? 2 : 0)).join(' | ')} |`,
    );
    await client.close();
    await store.close();
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(
  `\nGoal, search_nodes under 5 ms at 100,000 observations (in memory, the .jsonl store's): ${goal ? 'PASS' : 'FAIL'}`,
);
