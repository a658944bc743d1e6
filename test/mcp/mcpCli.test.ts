/**
 * `conversation-memory mcp` (issue #33, first slice) as a child process over stdio, driven by the
 * SDK's real client: its default store is a reference `memory.jsonl` (read as it is; the
 * reference server reads what it writes), `--export` writes the reference's bytes, `--import`
 * adds a reference file's graph, a SQLite store keeps the history, and bad options exit 2.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { SqliteKnowledgeStore } from 'conversation-memory/node';
import { MCP_GRAPH_ID } from 'conversation-memory/mcp';
import { logEntries, writeLogConcurrently } from '../support/mcpLogWrites';
import { INITIALIZE_REQUEST } from '../support/mcpInitialize';
import { startPostgresServer } from '../support/postgresServer';
import { startRedisServer } from '../support/redisServer';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const main = join(root, 'src/cli/main.ts');
/** tsx run from another directory: the project's tsconfig maps the package's names to src/. */
const fromSource = ['--tsconfig', join(root, 'tsconfig.json'), main];
const REFERENCE = join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

const connect = async (command: string, args: string[], cwd: string, env = {}) => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command,
      args,
      cwd,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
};

const runCli = (args: string[], cwd: string) =>
  new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(tsx, [...fromSource, 'mcp', ...args], { cwd }, (error, _out, stderr) =>
      resolve({ code: error === null ? 0 : (error.code as number), stderr }),
    ),
  );

/** `mcp --http 0 --store STORE [--namespace NS]` in `dir`, once it prints its URL. */
const startHttp = async (dir: string, store: string, namespace?: string) => {
  const more = namespace === undefined ? [] : ['--namespace', namespace];
  const child = spawn(tsx, [...fromSource, 'mcp', '--http', '0', '--store', store, ...more], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(new URL(found[1]));
    });
    child.once('exit', () => reject(new Error(`exited: ${stderr}`)));
  });
  return { child, url, printed: () => stderr };
};

const ADA = {
  entities: [{ name: 'Ada', entityType: 'person', observations: ['writes code', 'likes tea'] }],
};

describe('conversation-memory mcp', () => {
  it('serves ./memory.jsonl by default; the reference server reads what it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
    const ours = await connect(tsx, [...fromSource, 'mcp'], dir);
    await ours.callTool({ name: 'create_entities', arguments: ADA });
    await ours.callTool({
      name: 'create_relations',
      arguments: { relations: [{ from: 'Ada', to: 'Lisbon', relationType: 'lives in' }] },
    });
    await ours.callTool({
      name: 'delete_observations',
      arguments: { deletions: [{ entityName: 'Ada', observations: ['likes tea'] }] },
    });
    const graph = (await ours.callTool({ name: 'read_graph', arguments: {} })).structuredContent;
    await ours.close();
    const file = join(dir, 'memory.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.slice(0, 2)).toEqual([
      '{"type":"entity","name":"Ada","entityType":"person","observations":["writes code"]}',
      '{"type":"relation","from":"Ada","to":"Lisbon","relationType":"lives in"}',
    ]);
    // The history line keeps the retired observation; the reference skips the line.
    expect(lines[2]).toMatch(/^\{"type":"conversation-memory\/knowledge","state":\{/);
    expect(lines[2]).toContain('"retiredBy":"forgotten"');
    const reference = await connect(process.execPath, [REFERENCE], dir, { MEMORY_FILE_PATH: file });
    expect(
      (await reference.callTool({ name: 'read_graph', arguments: {} })).structuredContent,
    ).toEqual(graph);
    await reference.close();

    // Started again, it reads its history back; --export writes the reference's own bytes.
    expect(await runCli(['--export', 'out.jsonl'], dir)).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).toBe(lines.slice(0, 2).join('\n'));
  }, 60_000);

  it('reads a reference file as it is, and --import adds one to a SQLite store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
    // A file the reference server wrote.
    const referenceFile = join(dir, 'theirs.jsonl');
    const reference = await connect(process.execPath, [REFERENCE], dir, {
      MEMORY_FILE_PATH: referenceFile,
    });
    await reference.callTool({ name: 'create_entities', arguments: ADA });
    await reference.callTool({
      name: 'create_relations',
      arguments: { relations: [{ from: 'Ada', to: 'Bob', relationType: 'knows' }] },
    });
    await reference.close();
    const theirs = readFileSync(referenceFile, 'utf8');

    const ours = await connect(tsx, [...fromSource, 'mcp', '--store', 'theirs.jsonl'], dir);
    const read = await ours.callTool({ name: 'search_nodes', arguments: { query: 'tea' } });
    expect(read.structuredContent).toEqual({
      entities: ADA.entities,
      relations: [{ from: 'Ada', to: 'Bob', relationType: 'knows' }],
    });
    await ours.close();

    const db = join(dir, 'graph.db');
    writeFileSync(join(dir, 'more.jsonl'), theirs);
    expect(
      await runCli(
        ['--store', db, '--namespace', 'p1', '--import', 'more.jsonl', '--export', 'x.jsonl'],
        dir,
      ),
    ).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(join(dir, 'x.jsonl'), 'utf8')).toBe(theirs);
    const store = new SqliteKnowledgeStore({ path: db });
    const loaded = await store.load(MCP_GRAPH_ID, { namespace: 'p1' });
    expect(loaded?.state.entities.map((e) => e.name)).toEqual(['Ada']);
    await store.close();
  }, 60_000);

  it('--http serves Streamable HTTP on loopback until SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
    const { child, url } = await startHttp(dir, 'graph.db');
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.callTool({ name: 'create_entities', arguments: ADA });
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const store = new SqliteKnowledgeStore({ path: join(dir, 'graph.db') });
    expect((await store.load(MCP_GRAPH_ID))?.state.entities.map((e) => e.name)).toEqual(['Ada']);
    await store.close();
  }, 60_000);

  for (const backend of ['SQLite', 'Redis', 'PostgreSQL'] as const) {
    it(`two server processes on one ${backend} store lose no update`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
      const server =
        backend === 'Redis'
          ? await startRedisServer()
          : backend === 'PostgreSQL'
            ? await startPostgresServer()
            : undefined;
      const where = server?.url ?? 'graph.db';
      const namespace = `two-${process.pid}-${Date.now()}`;
      const servers = await Promise.all([
        startHttp(dir, where, namespace),
        startHttp(dir, where, namespace),
      ]);
      const clients = await Promise.all(
        servers.map(async ({ url }) => {
          const client = new Client({ name: 'test', version: '1' });
          await client.connect(new StreamableHTTPClientTransport(url));
          return client;
        }),
      );
      if (backend === 'PostgreSQL') {
        // The URL's user (and a password, if it had one) is not printed.
        expect(servers[0]?.printed()).toContain('serving postgres://***@127.0.0.1:');
        expect(servers[0]?.printed()).not.toContain('postgres://postgres@');
      }
      await writeLogConcurrently(clients, 30);
      const read = await clients[1]?.callTool({
        name: 'open_nodes',
        arguments: { names: ['Log'] },
      });
      for (const client of clients) await client.close();
      for (const { child } of servers) child.kill('SIGTERM');
      const [log] = (read?.structuredContent as { entities: { observations: string[] }[] })
        .entities;
      expect([...(log?.observations ?? [])].sort()).toEqual(logEntries(30));
      await server?.stop();
    }, 60_000);
  }

  it('on stdio, lines that are not JSON-RPC do not stop the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
    const child = spawn(tsx, [...fromSource, 'mcp'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.write('not json at all\n{"jsonrpc":"2.0"}\n[1,2,3]\n' + '{'.repeat(100_000) + '\n');
    child.stdin.write(`${JSON.stringify(INITIALIZE_REQUEST)}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_graph', arguments: 'nope' } })}\n`,
    );
    await expect
      .poll(() => out.split('\n').filter((line) => line.includes('"id":2')).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const answers = out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id?: number });
    expect(answers.find((a) => a.id === 1)).toMatchObject({
      result: { serverInfo: { name: 'conversation-memory' } },
    });
    expect(answers.find((a) => a.id === 2)).toBeDefined();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await exited;
  }, 60_000);

  it('exits 2 with the usage for an unknown or incomplete option', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-mcp-cli-'));
    const unknown = await runCli(['--stor', 'x.db'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^conversation-memory mcp: unknown option "--stor"\n\nUsage:/);
    expect((await runCli(['--store'], dir)).stderr).toMatch(/--store needs a value/);
    const help = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(tsx, [...fromSource, 'mcp', '--help'], { cwd: dir }, (error, stdout) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout }),
      ),
    );
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: conversation-memory mcp \[--http PORT/);
    expect((await runCli(['--http', '70000'], dir)).stderr).toMatch(
      /--http must be a port from 0 to 65535, received "70000"/,
    );
    expect((await runCli(['--host', '0.0.0.0'], dir)).stderr).toMatch(/--host goes with --http/);
    // A damaged store file, or a file to import that is not a reference file: one line, exit 1.
    writeFileSync(join(dir, 'memory.jsonl'), '{"type":"entity","name":1}');
    const damaged = await runCli(['--export', 'out.jsonl'], dir);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(
      /^conversation-memory mcp: \.\/memory\.jsonl: invalid input:\n {2}line 1\.name: must be a string/,
    );
    writeFileSync(join(dir, 'bad.jsonl'), 'not json');
    const bad = await runCli(
      ['--store', 'x.jsonl', '--import', 'bad.jsonl', '--export', 'y.jsonl'],
      dir,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^conversation-memory mcp: bad\.jsonl: invalid input:\n {2}line 1: not JSON/,
    );
  }, 60_000);
});
