/**
 * The JSON-file store's sweep and deleteNamespace on the files themselves (the conformance suite
 * checks what the methods show): the reference's copies, files kept aside, hashed names, held
 * locks, and a sweep of more files than one page of the directory.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionConflictError } from 'conversation-memory';
import { JsonFileSessionStore } from 'conversation-memory/node';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { sessionFileName } from '../../src/node/jsonFile/fileNames';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

const root = mkdtempSync(join(tmpdir(), 'cm-sessions-file-retention-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const freshDirectory = (): string => join(root, `store-${++made}`);
const files = (directory: string): string[] => readdirSync(directory).sort();

/** A file as selectools writes it (no revision), for `id` in `namespace`. */
const referenceFile = (id: string, namespace: string | null, at = 1_795_975_000) =>
  JSON.stringify({
    session_id: id,
    namespace,
    created_at: at,
    updated_at: at,
    memory: { max_messages: 20, max_tokens: null, message_count: 0, messages: [], summary: null },
  });

const lockOf = (directory: string, key: string) => join(directory, `${sessionFileName(key)}.lock`);
const holdLock = (directory: string, key: string) =>
  writeFileSync(
    lockOf(directory, key),
    JSON.stringify({ token: 't', pid: process.pid, host: hostname() }),
  );

describe('JsonFileSessionStore: deleteNamespace on the files', () => {
  it('deletes the namespace’s own files, the reference’s copies, hashed names and every file kept aside from them; nothing of another namespace', async () => {
    const directory = freshDirectory();
    const store = new JsonFileSessionStore({ directory });
    const long = 'x'.repeat(300); // a hashed file name
    await store.save('s1', sampleState(), { namespace: 'a' });
    await store.save('Upper', sampleState(), { namespace: 'a' }); // an encoded name
    await store.save(long, sampleState(), { namespace: 'a' });
    await store.save('s1', sampleState(), { namespace: 'a:b' });
    await store.save('a:s1', sampleState());
    await store.save('s1', sampleState(), { namespace: 'ab' });
    // The reference's own names: 'Team:Alice.json' is namespace 'Team'; 'a:b:c.json' holds the
    // reference's namespace 'a:b', id 'c' (ours: 'a%3Ab:c.json'), not namespace 'a'.
    writeFileSync(join(directory, 'Team:Alice.json'), referenceFile('Alice', 'Team'));
    writeFileSync(join(directory, 'a:Bob.json'), referenceFile('Bob', 'a'));
    writeFileSync(join(directory, 'a:b:c.json'), referenceFile('c', 'a:b'));
    // Both names for one session: ours and a copy the reference wrote after it.
    await store.save('Carol', sampleState(), { namespace: 'a' });
    writeFileSync(join(directory, 'a:Carol.json'), referenceFile('Carol', 'a'));
    // Kept aside: a damaged file of 'a' and one of 'a:b' replaced by saves, a damaged 'a' file
    // in place, and an aside file whose content no longer reads.
    for (const namespace of ['a', 'a:b']) {
      writeFileSync(
        join(directory, sessionFileName(`${namespace === 'a' ? 'a' : 'a%3Ab'}:d`)),
        '{',
      );
      await store.save('d', sampleState(), { namespace });
    }
    writeFileSync(join(directory, sessionFileName('a:damaged')), '{"session_id": "a:damag');
    writeFileSync(join(directory, `${sessionFileName('a:gone')}.corrupt-1-abcdef`), 'not json');
    expect(await store.list()).toHaveLength(12);

    expect(await store.deleteNamespace('a')).toEqual({ removed: 7 });
    const left = files(directory);
    expect(left.filter((name) => !name.includes('.corrupt-'))).toEqual(
      [
        'Team:Alice.json',
        'a:b:c.json',
        sessionFileName('a%3Ab:s1'),
        sessionFileName('a%3Ab:d'),
        sessionFileName('a%3As1'),
        sessionFileName('ab:s1'),
      ].sort(),
    );
    expect(left.filter((name) => name.includes('.corrupt-'))).toEqual([
      expect.stringMatching(/\.corrupt-\d+-[0-9a-f]{6}$/u),
    ]);
    expect(left.find((name) => name.includes('.corrupt-'))).toContain(sessionFileName('a%3Ab:d'));
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual([
      'Team:Alice',
      'a%3Ab:c',
      'a%3Ab:d',
      'a%3Ab:s1',
      'a%3As1',
      'ab:s1',
    ]);
    expect(await store.deleteNamespace('Team')).toEqual({ removed: 1 });
    expect(await store.deleteNamespace('a:b')).toEqual({ removed: 3 });
    expect(files(directory)).toEqual([sessionFileName('a%3As1'), sessionFileName('ab:s1')].sort());
  });

  it('takes each session’s lock: a live holder makes it fail with SessionConflictError after lockWaitMs; a call once it is free deletes the session', async () => {
    const directory = freshDirectory();
    const store = new JsonFileSessionStore({ directory, lockWaitMs: 100 });
    await store.save('s1', sampleState(), { namespace: 'a' });
    holdLock(directory, 'a:s1');
    const error = await rejection(store.deleteNamespace('a'));
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as Error).message).toContain('the namespace is partly deleted (call again)');
    expect(await store.exists('s1', { namespace: 'a' })).toBe(true);
    rmSync(lockOf(directory, 'a:s1'));
    expect(await store.deleteNamespace('a')).toEqual({ removed: 1 });
    expect(files(directory)).toEqual([]);
  });
});

describe('JsonFileSessionStore: sweep on the files', () => {
  it('removes every expired file, over several pages of the directory, and only those', async () => {
    const directory = freshDirectory();
    let now = 1_764_500_000;
    const store = new JsonFileSessionStore({ directory, defaultTtl: 60, now: () => now });
    const count = 2 * SWEEP_BATCH + 1;
    // Written as the reference writes them (no fsync per file: this is about the sweep).
    for (let i = 0; i < count; i++) {
      const namespace = `t${i % 7}`;
      writeFileSync(
        join(directory, `${namespace}:old-${i}.json`),
        referenceFile(`old-${i}`, namespace, now),
      );
    }
    now += 30;
    await store.save('fresh', sampleState());
    now += 31;
    expect(await store.sweep()).toEqual({ removed: count });
    expect(files(directory)).toEqual(['fresh.json']);
  }, 60_000);

  it('leaves a file whose lock is held (it is being written), a damaged one, and the reference’s expired copy is removed', async () => {
    const directory = freshDirectory();
    let now = 1_795_975_000;
    const store = new JsonFileSessionStore({ directory, defaultTtl: 60, now: () => now });
    await store.save('held', sampleState());
    await store.save('free', sampleState());
    writeFileSync(join(directory, 'Team:Alice.json'), referenceFile('Alice', 'Team', now));
    writeFileSync(join(directory, 'bad.json'), '{');
    holdLock(directory, 'held');
    now += 61;
    expect(await store.sweep()).toEqual({ removed: 2 });
    expect(files(directory)).toEqual(['bad.json', 'held.json', 'held.json.lock']);
    rmSync(lockOf(directory, 'held'));
    expect(await store.sweep()).toEqual({ removed: 1 });
    expect(files(directory)).toEqual(['bad.json']);
  });
});
