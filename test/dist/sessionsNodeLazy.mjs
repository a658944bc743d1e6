// The built `conversation-memory/node` (and its alias `conversation-memory/sessions/node`) must load without the optional peer `redis`:
// RedisSessionStore imports node-redis only when it makes its own client from a URL. This installs
// the built package into a temporary node_modules with its dependencies but WITHOUT redis, then,
// under plain Node, in ESM and in CJS: imports the subpath, runs a store on a caller's client (a
// stand-in that answers the store's commands), and checks that a store made from a URL says how
// to install redis.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-lazy-redis-'));
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
  assert.equal(fs.existsSync(path.join(modules, 'redis')), false);

  // A stand-in client: every key is absent (READ replies ['none']).
  const check = (load) => `
    ${load}
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
    console.log('ok');
  `;
  const esm = check(`
    const { RedisSessionStore } = await import('conversation-memory/node');
    const alias = await import('conversation-memory/sessions/node');
    if (alias.RedisSessionStore !== RedisSessionStore) throw new Error('the alias has other classes');
    const { MemoryArgumentError } = await import('conversation-memory');`);
  const cjs = `(async () => { ${check(`
    const { RedisSessionStore } = require('conversation-memory/node');
    if (require('conversation-memory/sessions/node').RedisSessionStore !== RedisSessionStore) throw new Error('the alias has other classes');
    const { MemoryArgumentError } = require('conversation-memory');`)} })().catch((e) => { console.error(e); process.exit(1); });`;
  const run = (args) => execFileSync(process.execPath, args, { cwd: temp, encoding: 'utf8' });
  assert.equal(run(['--input-type=module', '-e', esm]).trim(), 'ok');
  assert.equal(run(['--input-type=commonjs', '-e', cjs]).trim(), 'ok');
  console.log('node (and its alias sessions/node) loads without redis, in ESM and CJS');
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
