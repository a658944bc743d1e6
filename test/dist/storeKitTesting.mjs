// `conversation-memory/store-kit/testing` as a store author installs it, run after `npm run build`.
// The built package is installed into a temporary node_modules with its dependencies and every
// optional peer EXCEPT vitest and fast-check (the peers of this entry only). Under plain Node:
// every other entry loads, in ESM and CJS (so none of them needs vitest or fast-check), and this
// entry, without them, fails naming the missing package. Then vitest and fast-check are added and
// vitest runs, in that project, a test file as a third party writes it: the three published
// suites, by package name, against a session store written outside src/ (test/stores/
// mapSessionStore.ts, copied in) and the package's in-memory event and knowledge stores.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const ENTRY = './store-kit/testing';
const SUITE_PEERS = ['vitest', 'fast-check'];
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-store-kit-testing-'));
try {
  const modules = path.join(temp, 'node_modules');
  const own = path.join(modules, 'conversation-memory');
  fs.mkdirSync(own, { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(own, 'package.json'));
  fs.cpSync(path.join(root, 'dist'), path.join(own, 'dist'), { recursive: true });
  const link = (name) => {
    const target = path.join(modules, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', name), target, 'dir');
  };
  const otherPeers = Object.keys(manifest.peerDependencies).filter((n) => !SUITE_PEERS.includes(n));
  for (const name of [...Object.keys(manifest.dependencies), ...otherPeers]) link(name);
  for (const name of SUITE_PEERS) assert.equal(fs.existsSync(path.join(modules, name)), false);
  assert.ok(manifest.peerDependenciesMeta.vitest.optional && manifest.peerDependenciesMeta['fast-check'].optional);

  const node = (args) => spawnSync(process.execPath, args, { cwd: temp, encoding: 'utf8' });
  const names = Object.entries(manifest.exports)
    .filter(([subpath, target]) => typeof target === 'object' && subpath !== ENTRY)
    .map(([subpath]) => `conversation-memory${subpath.slice(1)}`);
  assert.ok(names.length > 10, 'every other entry is checked');
  const esm = node([
    '--input-type=module',
    '-e',
    `for (const name of ${JSON.stringify(names)}) await import(name); console.log('ok');`,
  ]);
  assert.equal(esm.stdout.trim(), 'ok', esm.stderr);
  const cjs = node([
    '--input-type=commonjs',
    '-e',
    `for (const name of ${JSON.stringify(names)}) require(name); console.log('ok');`,
  ]);
  assert.equal(cjs.stdout.trim(), 'ok', cjs.stderr);
  const missing = node(['--input-type=module', '-e', "await import('conversation-memory/store-kit/testing');"]);
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /Cannot find package '(vitest|fast-check)'/);

  // With the suite's peers: a third party's test file, run by vitest in that project.
  for (const name of SUITE_PEERS) link(name);
  fs.copyFileSync(
    path.join(root, 'test/stores/mapSessionStore.ts'),
    path.join(temp, 'mapSessionStore.ts'),
  );
  fs.writeFileSync(
    path.join(temp, 'stores.test.ts'),
    `import { InMemoryEventStore } from 'conversation-memory';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import {
  eventStoreConformance,
  knowledgeStoreConformance,
  sessionStoreConformance,
} from 'conversation-memory/store-kit/testing';
import { MapSessionStore } from './mapSessionStore';

sessionStoreConformance('MapSessionStore', {
  make: async (options) => new MapSessionStore(options),
  corrupt: async (store, key) => {
    (store as MapSessionStore).records.set(key, '{"revision": 1, "createdAt": 1, "memo');
  },
  asideCount: async (store) => (store as MapSessionStore).aside.length,
});
eventStoreConformance('InMemoryEventStore', {
  make: async (options) => new InMemoryEventStore(options),
});
knowledgeStoreConformance('InMemoryKnowledgeStore', {
  make: async (options) => new InMemoryKnowledgeStore(options),
});
`,
  );
  // The project's own fixed seed, as test/setup/fastCheck.ts sets it for this repository.
  fs.writeFileSync(
    path.join(temp, 'seed.ts'),
    "import fc from 'fast-check';\nfc.configureGlobal({ seed: 20261130, numRuns: 100 });\n",
  );
  fs.writeFileSync(
    path.join(temp, 'vitest.config.mjs'),
    "export default { test: { setupFiles: ['./seed.ts'], include: ['stores.test.ts'] } };\n",
  );
  const vitest = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json'],
    { cwd: temp, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TEST_DIST: '' } },
  );
  const report = JSON.parse(vitest.stdout.slice(vitest.stdout.indexOf('{')));
  const failed = report.testResults
    .flatMap((file) => file.assertionResults)
    .filter((test) => test.status !== 'passed');
  assert.deepEqual(
    failed.map((test) => `${test.fullName}: ${test.failureMessages.join('\n')}`),
    [],
    vitest.stderr,
  );
  assert.equal(vitest.status, 0, vitest.stderr);
  const suites = report.testResults
    .flatMap((file) => file.assertionResults)
    .map((test) => test.ancestorTitles[0]);
  for (const suite of [
    'MapSessionStore: SessionStore conformance',
    'InMemoryEventStore: EventStore conformance',
    'InMemoryKnowledgeStore: KnowledgeStore conformance',
  ]) {
    assert.ok(suites.filter((title) => title === suite).length >= 10, `${suite} ran`);
  }
  console.log(
    `store-kit/testing: every other entry loads without vitest and fast-check (ESM, CJS); ` +
      `the installed suites ran ${report.numPassedTests} tests in a store author's project: ok`,
  );
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
