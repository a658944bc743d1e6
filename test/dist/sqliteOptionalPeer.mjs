// The SQLite store's peer is optional: the built `conversation-memory/node` entry (ESM
// and CJS) loads without better-sqlite3, says how to install it when a store is made without it,
// and, with it installed, makes a working store in both formats.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const resolve = Module._resolveFilename;
let hidden = true;
const asked = [];
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') {
    asked.push(request);
    if (hidden) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};

const esm = await import('conversation-memory/node');
const cjs = require('conversation-memory/node');
assert.equal(asked.length, 0, 'importing the entry must not load better-sqlite3');
for (const [format, entry] of [['ESM', esm], ['CJS', cjs]]) {
  assert.equal(typeof entry.SqliteSessionStore, 'function');
  assert.throws(
    () => new entry.SqliteSessionStore({ path: 'never-created.db' }),
    (error) => error.code === 'CM_ARGUMENT' && /npm install better-sqlite3/.test(error.message),
    `${format}: a clear error without the peer`,
  );
}
assert.equal(fs.existsSync('never-created.db'), false);

hidden = false;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-dist-sqlite-'));
try {
  const root = await import('conversation-memory');
  const state = root.addMessage(root.createMemory({ tokenizer: 'heuristic' }), root.userMessage('lisbon')).state;
  for (const [format, entry] of [['ESM', esm], ['CJS', cjs]]) {
    const store = new entry.SqliteSessionStore({ path: path.join(dir, `${format}.db`) });
    assert.deepEqual(await store.save('s1', state, { expectedRevision: 0 }), { revision: 1 });
    assert.deepEqual((await store.load('s1')).state, state);
    assert.equal((await store.search('lisbon'))[0].sessionId, 's1');
    await store.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log('dist node: SQLite peer optional, ESM and CJS stores work: ok');
