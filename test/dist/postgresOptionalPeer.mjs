// The built `conversation-memory/node` must load without the optional peer `pg`: the Postgres
// stores load node-postgres only when they make their own pool from a connection string. This
// installs the built package into a temporary node_modules with its dependencies but WITHOUT pg,
// then, under plain Node, in ESM and in CJS: imports the entry, runs a store on a caller's pool (a
// stand-in that answers the store's queries), and checks that a store made from a connection
// string says how to install pg.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-lazy-pg-'));
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
  assert.equal(fs.existsSync(path.join(modules, 'pg')), false);

  // A stand-in pool: the schema transaction reports version 1, and no session exists.
  const check = (load) => `
    ${load}
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
    console.log('ok');
  `;
  const esm = check(`
    const { PostgresSessionStore } = await import('conversation-memory/node');
    const { MemoryArgumentError } = await import('conversation-memory');`);
  const cjs = `(async () => { ${check(`
    const { PostgresSessionStore } = require('conversation-memory/node');
    const { MemoryArgumentError } = require('conversation-memory');`)} })().catch((e) => { console.error(e); process.exit(1); });`;
  const run = (args) => execFileSync(process.execPath, args, { cwd: temp, encoding: 'utf8' });
  assert.equal(run(['--input-type=module', '-e', esm]).trim(), 'ok');
  assert.equal(run(['--input-type=commonjs', '-e', cjs]).trim(), 'ok');
  console.log('node loads without pg, in ESM and CJS; a connection string without pg says how to install it');
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
