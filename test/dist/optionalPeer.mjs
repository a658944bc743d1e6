// The built `conversation-memory/node` must load without an optional peer that a store loads only
// when it makes its own connection: `redis` (RedisSessionStore, from a URL; also through the alias
// `conversation-memory/sessions/node`) or `pg` (the Postgres stores, from a connection string).
// The MCP server's SDK (`@modelcontextprotocol/sdk`) is one too: without it, every other entry
// and the bin's `inspect` and `mcp --export` work, `conversation-memory/mcp` fails to load naming
// it, and `conversation-memory mcp` (serving) says how to install it.
// Usage: node test/dist/optionalPeer.mjs <redis|pg|mcp>
//
// This installs the built package into a temporary node_modules with its dependencies but WITHOUT
// the peer, then, under plain Node, in ESM and in CJS: imports the entry, runs a store on a
// caller's client or pool (a stand-in that answers the store's commands or queries), and checks
// that a store that would load the peer says how to install it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Per peer: what the program imports (ESM and CJS), the checks it runs with them (ending with
 * `console.log('ok')`), and what this script says when both formats pass.
 */
const PEERS = {
  redis: {
    esm: `
      const { RedisSessionStore } = await import('conversation-memory/node');
      const alias = await import('conversation-memory/sessions/node');
      if (alias.RedisSessionStore !== RedisSessionStore) throw new Error('the alias has other classes');
      const { MemoryArgumentError } = await import('conversation-memory');`,
    cjs: `
      const { RedisSessionStore } = require('conversation-memory/node');
      if (require('conversation-memory/sessions/node').RedisSessionStore !== RedisSessionStore) throw new Error('the alias has other classes');
      const { MemoryArgumentError } = require('conversation-memory');`,
    // A stand-in client: every key is absent (READ replies ['none']).
    checks: `
      const calls = [];
      const client = { sendCommand: async (args) => { calls.push(args[0]); return ['none']; } };
      const store = new RedisSessionStore({ client });
      if ((await store.exists('s1')) !== false) throw new Error('exists should be false');
      if (calls[0] !== 'EVALSHA') throw new Error('expected EVALSHA, got ' + calls[0]);
      await store.close();
      const owned = new RedisSessionStore({ url: 'redis://127.0.0.1:1' });
      const error = await owned.load('s1').then(() => undefined, (e) => e);
      if (!(error instanceof MemoryArgumentError)) throw new Error('expected MemoryArgumentError, got ' + error);
      if (!error.message.includes('npm install redis')) throw new Error(error.message);
      console.log('ok');`,
    passed: 'node (and its alias sessions/node) loads without redis, in ESM and CJS',
  },
  pg: {
    esm: `
      const { PostgresSessionStore } = await import('conversation-memory/node');
      const { MemoryArgumentError } = await import('conversation-memory');`,
    cjs: `
      const { PostgresSessionStore } = require('conversation-memory/node');
      const { MemoryArgumentError } = require('conversation-memory');`,
    // A stand-in pool: the schema transaction reports version 1, and no session exists.
    checks: `
      const sent = [];
      const client = {
        query: async ({ text }) => { sent.push(text); return { rows: /SELECT version/.test(text) ? [{ version: '1' }] : [] }; },
        release: () => undefined,
      };
      const pool = { query: async ({ text }) => { sent.push(text); return { rows: [] }; }, connect: async () => client };
      const store = new PostgresSessionStore({ pool });
      if ((await store.exists('s1')) !== false) throw new Error('exists should be false');
      if (!sent.includes('BEGIN') || !sent.some((text) => text.startsWith('SELECT updated_at'))) throw new Error(sent.join('; '));
      await store.close();
      let error;
      try { new PostgresSessionStore({ connectionString: 'postgres://127.0.0.1:1/x' }); } catch (e) { error = e; }
      if (!(error instanceof MemoryArgumentError)) throw new Error('expected MemoryArgumentError, got ' + error);
      if (!error.message.includes('npm install pg')) throw new Error(error.message);
      console.log('ok');`,
    passed: 'node loads without pg, in ESM and CJS; a connection string without pg says how to install it',
  },
  mcp: {
    package: '@modelcontextprotocol/sdk',
    esm: `
      const { SqliteKnowledgeStore } = await import('conversation-memory/node');
      const { InMemoryKnowledgeStore } = await import('conversation-memory/knowledge');`,
    cjs: `
      const { SqliteKnowledgeStore } = require('conversation-memory/node');
      const { InMemoryKnowledgeStore } = require('conversation-memory/knowledge');`,
    checks: `
      if (typeof SqliteKnowledgeStore !== 'function' || typeof InMemoryKnowledgeStore !== 'function') throw new Error('no stores');
      const error = await import('conversation-memory/mcp').then(() => undefined, (e) => e);
      if (error === undefined || !String(error.message).includes('@modelcontextprotocol/sdk')) throw new Error('expected the SDK named, got ' + error);
      const { spawnSync } = await import('node:child_process');
      const fs = await import('node:fs');
      const bin = process.cwd() + '/node_modules/conversation-memory/dist/cli.js';
      fs.writeFileSync('graph.jsonl', '{"type":"entity","name":"Ada","entityType":"person","observations":["likes tea"]}');
      const exported = spawnSync(process.execPath, [bin, 'mcp', '--store', 'graph.jsonl', '--export', 'out.jsonl'], { encoding: 'utf8' });
      if (exported.status !== 0 || !fs.readFileSync('out.jsonl', 'utf8').includes('"Ada"')) throw new Error('mcp --export: ' + exported.stderr);
      const served = spawnSync(process.execPath, [bin, 'mcp', '--store', 'graph.jsonl'], { encoding: 'utf8', input: '' });
      if (served.status !== 1 || !served.stderr.includes('npm install @modelcontextprotocol/sdk@1')) throw new Error('mcp: ' + served.status + ' ' + served.stderr);
      console.log('ok');`,
    passed:
      'node and knowledge load without @modelcontextprotocol/sdk, in ESM and CJS; mcp --export works; serving and the mcp entry name the SDK',
  },
};

const peer = process.argv[2];
const checked = PEERS[peer];
if (checked === undefined) {
  console.error(`usage: node test/dist/optionalPeer.mjs <${Object.keys(PEERS).join('|')}>`);
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), `cm-lazy-${peer}-`));
try {
  const modules = path.join(temp, 'node_modules');
  const own = path.join(modules, 'conversation-memory');
  fs.mkdirSync(own, { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(own, 'package.json'));
  fs.cpSync(path.join(root, 'dist'), path.join(own, 'dist'), { recursive: true });
  for (const name of Object.keys(manifest.dependencies)) {
    const target = path.join(modules, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', name), target, 'dir');
  }
  assert.equal(fs.existsSync(path.join(modules, checked.package ?? peer)), false);

  const esm = `${checked.esm}\n${checked.checks}`;
  const cjs = `(async () => { ${checked.cjs}\n${checked.checks} })().catch((e) => { console.error(e); process.exit(1); });`;
  const run = (args) => execFileSync(process.execPath, args, { cwd: temp, encoding: 'utf8' });
  assert.equal(run(['--input-type=module', '-e', esm]).trim(), 'ok');
  assert.equal(run(['--input-type=commonjs', '-e', cjs]).trim(), 'ok');
  console.log(checked.passed);
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
