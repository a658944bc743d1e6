import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MemoryState, toDict } from 'conversation-memory';
import { isStorageKey, sessionKeyOf } from 'conversation-memory/store-kit';
import { SqliteSessionStore } from 'conversation-memory/node';
import { sampleState } from '../stores/storeSamples';
import { tempDatabasePaths, withDatabaseFile } from '../support/sqliteFiles';

/**
 * A database written the reference's way (selectools' `SQLiteSessionStore`: the row of a session
 * is keyed `ns:id`, or the bare id) whose keys our scheme never produces (`50%`: ours is `50%25`):
 * such a row is its pair's session until the pair is saved, when it moves to the storage key.
 */

const freshPath = tempDatabasePaths('cm-sqlite-reference-');

/** The reference's DDL, exactly, with its FTS5 index. */
const REFERENCE_DDL = `
  CREATE TABLE IF NOT EXISTS sessions (
      session_id TEXT PRIMARY KEY,
      memory_json TEXT NOT NULL,
      message_count INTEGER NOT NULL DEFAULT 0,
      created_at REAL NOT NULL,
      updated_at REAL NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS session_messages_fts USING fts5(content, session_key UNINDEXED);
  CREATE TABLE IF NOT EXISTS session_search_index (session_key TEXT PRIMARY KEY, indexed_at REAL NOT NULL);`;

/** Writes rows as the reference's `save` does: the row, then its FTS rows and index entry. */
const referenceDatabase = (file: string, rows: Record<string, MemoryState>): void =>
  withDatabaseFile(file, (db) => {
    db.pragma('journal_mode = WAL');
    db.exec(REFERENCE_DDL);
    const insert = db.prepare(
      `INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(session_id) DO UPDATE SET memory_json = excluded.memory_json,
         message_count = excluded.message_count, updated_at = excluded.updated_at`,
    );
    const fts = db.prepare('INSERT INTO session_messages_fts (content, session_key) VALUES (?, ?)');
    const mark = db.prepare(
      `INSERT INTO session_search_index (session_key, indexed_at) VALUES (?, ?)
       ON CONFLICT(session_key) DO UPDATE SET indexed_at = excluded.indexed_at`,
    );
    for (const [key, state] of Object.entries(rows)) {
      insert.run(
        key,
        JSON.stringify(toDict(state)),
        state.messages.length,
        1_795_975_000,
        1_795_975_100,
      );
      db.prepare('DELETE FROM session_messages_fts WHERE session_key = ?').run(key);
      for (const message of state.messages) {
        if ((message.role === 'user' || message.role === 'assistant') && message.content) {
          fts.run(message.content, key);
        }
      }
      mark.run(key, 1_795_975_100);
    }
  });

const texts = (state: MemoryState | undefined) => state?.messages.map((m) => m.content);
const ftsRows = (file: string, key: string) =>
  withDatabaseFile(file, (db) =>
    db
      .prepare(
        'SELECT rowid AS id, content FROM session_messages_fts WHERE session_key = ? ORDER BY rowid',
      )
      .all(key),
  );
const keys = (file: string) =>
  withDatabaseFile(file, (db) =>
    db.prepare('SELECT session_id FROM sessions ORDER BY session_id').pluck().all(),
  );

describe('SqliteSessionStore: reference rows under keys our scheme never makes', () => {
  it('are listed as the pair they are and load, exist, search and branch as it', async () => {
    const file = freshPath();
    referenceDatabase(file, {
      '50%': sampleState(['fifty percent', 'lisbon']),
      '5%:x': sampleState(['five percent x', 'lisbon']),
      'a:b': sampleState(['namespace a, id b']),
      'a%3A%:x': sampleState(['raw escape', 'lisbon']),
    });
    for (const key of ['50%', '5%:x', 'a%3A%:x']) expect(isStorageKey(key)).toBe(false);
    const store = new SqliteSessionStore({ path: file });
    const listed = await store.list();
    expect(listed.map(({ sessionId, id, namespace }) => ({ sessionId, id, namespace }))).toEqual([
      { sessionId: '5%:x', id: 'x', namespace: '5%' },
      { sessionId: '50%', id: '50%', namespace: undefined },
      { sessionId: 'a%3A%:x', id: 'x', namespace: 'a%3A%' },
      { sessionId: 'a:b', id: 'b', namespace: 'a' },
    ]);
    // Every entry loads back by its id and namespace.
    for (const entry of listed) {
      const loaded = await store.load(entry.id, { namespace: entry.namespace });
      expect(loaded?.revision).toBe(1);
      expect(await store.exists(entry.id, { namespace: entry.namespace })).toBe(true);
    }
    expect(texts((await store.load('50%'))?.state)).toEqual(['fifty percent', 'lisbon']);
    expect(texts((await store.load('x', { namespace: '5%' }))?.state)?.[0]).toBe('five percent x');
    expect(texts((await store.load('b', { namespace: 'a' }))?.state)?.[0]).toBe(
      'namespace a, id b',
    );
    // The bare id 'a:b' was stored as 'a:b': it reads as namespace 'a', id 'b' (documented).
    expect(await store.load('a:b')).toBeNull();

    const found = await store.search('lisbon');
    expect(found.map(({ sessionId, id, namespace }) => ({ sessionId, id, namespace }))).toEqual(
      expect.arrayContaining([
        { sessionId: '50%', id: '50%', namespace: undefined },
        { sessionId: '5%:x', id: 'x', namespace: '5%' },
      ]),
    );
    expect((await store.search('lisbon', { namespace: '5%' })).map((r) => r.id)).toEqual(['x']);
    expect((await store.search('lisbon', { namespace: 'a%3A%' })).map((r) => r.id)).toEqual(['x']);
    const scan = new SqliteSessionStore({ path: file, fts: false });
    expect((await scan.search('lisbon', { namespace: '5%' })).map((r) => r.id)).toEqual(['x']);
    expect((await scan.search('fifty')).map(({ sessionId, id }) => [sessionId, id])).toEqual([
      ['50%', '50%'],
    ]);
    await scan.close();
    expect(await store.branch('x', 'copy', { namespace: '5%' })).toEqual({ revision: 1 });
    expect(texts((await store.load('copy', { namespace: '5%' }))?.state)?.[0]).toBe(
      'five percent x',
    );
    await store.close();
  });

  it('a save moves the row to the storage key in its transaction, with its search index (rowids kept)', async () => {
    const file = freshPath();
    referenceDatabase(file, { '50%': sampleState(['fifty percent', 'lisbon']) });
    const before = ftsRows(file, '50%');
    expect(before).toHaveLength(2);
    const store = new SqliteSessionStore({ path: file });
    const loaded = await store.load('50%');
    const next = sampleState(['fifty percent', 'lisbon', 'porto']);
    expect(await store.save('50%', next, { expectedRevision: loaded?.revision ?? 0 })).toEqual({
      revision: 2,
    });
    expect(keys(file)).toEqual(['50%25']);
    expect(ftsRows(file, '50%')).toEqual([]);
    const after = ftsRows(file, '50%25');
    expect(after.slice(0, 2)).toEqual(before);
    expect(after.map((row) => (row as { content: string }).content)).toEqual([
      'fifty percent',
      'lisbon',
      'porto',
    ]);
    expect(
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT session_key FROM session_search_index').pluck().all(),
      ),
    ).toEqual(['50%25']);
    expect(await store.load('50%')).toMatchObject({ revision: 2, createdAt: 1_795_975_000 });
    expect((await store.search('porto')).map(({ sessionId, id }) => [sessionId, id])).toEqual([
      ['50%25', '50%'],
    ]);
    // A stale revision moves nothing.
    referenceDatabase(file, { '7%': sampleState(['seven']) });
    expect(
      await store.save('7%', sampleState(), { expectedRevision: 0 }).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'CM_SESSION_CONFLICT',
      actualRevision: 1,
    });
    expect(keys(file)).toEqual(['50%25', '7%']);
    await store.close();
  });

  it('a reference row written again beside ours is hidden by ours, and a delete removes both', async () => {
    const file = freshPath();
    referenceDatabase(file, { '50%': sampleState(['old']) });
    const store = new SqliteSessionStore({ path: file });
    await store.save('50%', sampleState(['ours']));
    referenceDatabase(file, { '50%': sampleState(['the reference again']) });
    expect(keys(file)).toEqual(['50%', '50%25']);
    expect(texts((await store.load('50%'))?.state)).toEqual(['ours']);
    expect((await store.list()).map((e) => [e.sessionId, e.id])).toEqual([['50%25', '50%']]);
    expect((await store.search('reference')).map((r) => r.sessionId)).toEqual([]);
    expect(await store.delete('50%')).toBe(true);
    expect(keys(file)).toEqual([]);
    expect(await store.load('50%')).toBeNull();
    expect(await store.delete('50%')).toBe(false);
    await store.close();
  });

  it('property: in a database the reference wrote, every listed entry loads the row it lists, and pairs are never listed twice', async () => {
    // Keys the reference can write: an id and a namespace are never empty (a bare id with a `:`
    // at either end reads as a pair with an empty part, which nothing can load: left out).
    const keyArb = fc
      .stringMatching(/^[:%3Aa5]{1,5}$/u)
      .filter((key) => !key.startsWith(':') && !key.endsWith(':'));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(keyArb, { minLength: 1, maxLength: 6 }), async (rowKeys) => {
        const file = freshPath();
        referenceDatabase(
          file,
          Object.fromEntries(rowKeys.map((key) => [key, sampleState([`row ${key}`])])),
        );
        const store = new SqliteSessionStore({ path: file });
        try {
          const listed = await store.list();
          const pairs = listed.map((e) => `${e.namespace ?? '\u0000'}\u0000${e.id}`);
          expect(new Set(pairs).size).toBe(pairs.length);
          for (const entry of listed) {
            const loaded = await store.load(entry.id, { namespace: entry.namespace });
            expect(texts(loaded?.state)?.[0]).toBe(`row ${entry.sessionId}`);
          }
          // A row is left out only when the storage key of its pair holds a row (listed).
          for (const key of rowKeys) {
            if (listed.some((e) => e.sessionId === key)) continue;
            expect(isStorageKey(key)).toBe(false);
            const colon = key.indexOf(':');
            const ours =
              colon < 0
                ? sessionKeyOf(key).key
                : sessionKeyOf(key.slice(colon + 1), { namespace: key.slice(0, colon) }).key;
            expect(listed.map((e) => e.sessionId)).toContain(ours);
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
