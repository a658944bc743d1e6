/**
 * Issue #15, item 2: breaking a stale lock may remove only its own session's temp file, matched by
 * its exact name pattern, never the file a (hostile or damaged) lock names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFileSessionStore } from 'conversation-memory/node';
import { isOwnTempFileName } from '../../src/node/jsonFile/fileNames';
import { sampleState } from '../stores/storeSamples';

const root = mkdtempSync(join(tmpdir(), 'cm-sessions-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;

/** A pid that no process has any more. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

/** Every file of the directory with its content (locks and temp files left out). */
const snapshot = (directory: string): Map<string, string> =>
  new Map(
    readdirSync(directory).map((name) => [name, readFileSync(join(directory, name), 'utf8')]),
  );

/** Writes the lock of session file `a.json`: stale, by a dead holder or by age. */
const writeStaleLock = (directory: string, temp: unknown, pid: number, byAge: boolean): void => {
  const path = join(directory, 'a.json.lock');
  writeFileSync(
    path,
    JSON.stringify({ pid, host: byAge ? 'elsewhere' : hostname(), token: 't', temp }),
  );
  if (byAge) utimesSync(path, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
};

describe('JsonFileSessionStore: breaking a stale lock', () => {
  it('a stale lock naming b.json (or any other file) deletes nothing but its own temp file', async () => {
    const directory = join(root, `store-${++made}`);
    const store = new JsonFileSessionStore({ directory });
    await store.save('a', sampleState(['a']));
    await store.save('b', sampleState(['b']));
    const dead = deadPid();
    for (const temp of ['b.json', 'a.json', '../b.json', `b.json.${dead}-0a1b2c3d4e5f.tmp`]) {
      writeFileSync(join(directory, `b.json.${dead}-0a1b2c3d4e5f.tmp`), 'b’s writer’s temp');
      writeStaleLock(directory, temp, dead, false);
      await store.save('a', sampleState(['a again']));
      expect((await store.load('b'))?.state.messages[0]?.content).toBe('b');
      expect(readdirSync(directory)).toContain(`b.json.${dead}-0a1b2c3d4e5f.tmp`);
    }
    // Its own temp file (the dead holder's pid, 12 hex digits) is removed.
    const own = `a.json.${dead}-0a1b2c3d4e5f.tmp`;
    writeFileSync(join(directory, own), '{"session_id": "a", "half');
    writeStaleLock(directory, own, dead, false);
    await store.save('a', sampleState(['a again']));
    expect(readdirSync(directory)).not.toContain(own);
  });

  it('for any name a stale lock gives, only a name of the exact own-temp pattern is removed', async () => {
    const directory = join(root, `store-${++made}`);
    const store = new JsonFileSessionStore({ directory });
    await store.save('a', sampleState(['a']));
    await store.save('b', sampleState(['b']));
    const dead = deadPid();
    const hex = fc.stringMatching(/^[0-9a-f]{12}$/);
    const nearMisses = fc.oneof(
      hex.map((h) => `a.json.${dead}-${h}.tmp`), // its own: removed
      hex.map((h) => `b.json.${dead}-${h}.tmp`), // another session's temp
      hex.map((h) => `a.json.${dead + 1}-${h}.tmp`), // another writer's temp of this session
      hex.map((h) => `a.json.${dead}-${h.slice(1)}.tmp`),
      hex.map((h) => `a.json.${dead}-${h.toUpperCase()}x.tmp`),
      hex.map((h) => `a.json.${dead}-${h}.tmp.json`),
      hex.map((h) => `a.json.${dead}-${h}.tmp.bak`),
      fc.constantFrom('a.json', 'b.json', 'a.json.lock', 'notes.txt', '.', '..', ''),
      fc.string({ minLength: 1, maxLength: 40 }).filter((name) => /^[^/\0]+$/.test(name)),
    );
    await fc.assert(
      fc.asyncProperty(nearMisses, fc.boolean(), async (temp, byAge) => {
        // A file at the name (unless it is the lock itself, which the stale lock is written over).
        const plain = !['', '.', '..', 'a.json.lock'].includes(temp);
        const created = plain && !readdirSync(directory).includes(temp);
        if (created) writeFileSync(join(directory, temp), 'a stray file');
        const before = snapshot(directory);
        const revision = (await store.load('a'))?.revision ?? 0;
        writeStaleLock(directory, temp, dead, byAge);
        expect(await store.save('a', sampleState(['a']))).toEqual({ revision: revision + 1 });
        const after = snapshot(directory);
        const removed = [...before.keys()].filter((name) => !after.has(name));
        const own = new RegExp(`^a\\.json\\.${dead}-[0-9a-f]{12}\\.tmp$`).test(temp);
        expect(removed).toEqual(own ? [temp] : []);
        expect(isOwnTempFileName('a.json.lock', temp, dead)).toBe(own);
        for (const [name, text] of before) {
          if (name !== 'a.json' && after.has(name)) expect(after.get(name)).toBe(text);
        }
        expect((await store.load('b'))?.state.messages[0]?.content).toBe('b');
        if (created && !own) rmSync(join(directory, temp));
      }),
      { numRuns: 150 },
    );
  });
});
