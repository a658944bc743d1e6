import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { memoryActions } from 'conversation-memory';
import {
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { sampleKnowledge } from '../arbitraries/knowledge';
import { sampleState } from '../stores/storeSamples';
import { manualClock } from '../stores/suiteHelpers';
import { tempDatabasePaths } from '../support/sqliteFiles';
import { sideConnection } from '../support/sqliteRetention';

// deleteNamespace in the SQLite stores removes every copy the file keeps of the namespace, read
// here from the tables themselves: the rows, the copies set aside from damaged rows, the search
// index (FTS5 rows and index entries, left by the store or by another program), the actions and
// snapshots of its streams, and nothing of any other namespace.

const freshPath = tempDatabasePaths('cm-retention-erasure-');

/** Every row of `tables`, as JSON text per row, in a stable order. */
const dump = (db: Database.Database, tables: readonly string[]): string[] =>
  tables.flatMap((table) =>
    db
      .prepare(`SELECT * FROM ${table}`)
      .raw()
      .all()
      .map((row) => `${table} ${JSON.stringify(row)}`)
      .sort(),
  );

/** The namespaces written beside `a` (their keys start `ab:`, `a%3Ab:`, or have none). */
const OTHERS = ['ab', 'a:b', undefined] as const;

describe('SQLite deleteNamespace removes every copy of the namespace, and nothing else', () => {
  it('SqliteSessionStore: rows, damaged rows, copies set aside, FTS5 rows and index entries (its own and another program’s)', async () => {
    const file = freshPath();
    const store = new SqliteSessionStore({ path: file });
    const db = sideConnection(file);
    const damage = (key: string) =>
      db.prepare("UPDATE sessions SET memory_json = '{' WHERE session_id = ?").run(key);
    for (const namespace of ['a', ...OTHERS]) {
      await store.save('s1', sampleState([`alpha ${namespace ?? '-'}`, 'beta']), { namespace });
      await store.save('bad', sampleState(['alpha bad']), { namespace });
      damage(namespace === undefined ? 'bad' : `${namespace.replace(':', '%3A')}:bad`);
      // Saved over: the damaged row is set aside first.
      await store.save('bad', sampleState(['alpha again']), { namespace, expectedRevision: 0 });
    }
    await store.save('damaged', sampleState(['alpha damaged']), { namespace: 'a' });
    damage('a:damaged');
    // Left by another program: index rows of no session, in 'a' and in 'ab'.
    for (const key of ['a:ghost', 'ab:ghost']) {
      db.prepare('INSERT INTO session_messages_fts (content, session_key) VALUES (?, ?)').run(
        'alpha ghost',
        key,
      );
      db.prepare('INSERT INTO session_search_index (session_key, indexed_at) VALUES (?, 1)').run(
        key,
      );
    }
    const tables = ['sessions', 'sessions_corrupt', 'session_messages_fts', 'session_search_index'];
    const before = dump(db, tables);
    const ofA = (line: string) => line.includes('"a:');
    expect(before.filter(ofA).length).toBeGreaterThanOrEqual(10);
    expect(await store.deleteNamespace('a')).toEqual({ removed: 3 });
    expect(dump(db, tables)).toEqual(before.filter((line) => !ofA(line)));
    await store.close();
  });

  it('SqliteSessionStore: a namespace with % removes the reference’s rows of its pairs (ns:id), not another namespace’s', async () => {
    const file = freshPath();
    const store = new SqliteSessionStore({ path: file });
    await store.save('y', sampleState(['ours']), { namespace: '50%' });
    await store.save('c', sampleState(['other']), { namespace: '50%3A' });
    const db = sideConnection(file);
    // The reference's key for (namespace '50%', id 'x'): not a storage key, so that pair's row.
    db.prepare(
      `INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at, revision)
       SELECT '50%:x', memory_json, message_count, created_at, updated_at, 1 FROM sessions WHERE session_id = '50%25:y'`,
    ).run();
    expect((await store.load('x', { namespace: '50%' }))?.revision).toBe(1);
    expect(await store.deleteNamespace('50%')).toEqual({ removed: 2 });
    expect(db.prepare('SELECT session_id FROM sessions').pluck().all()).toEqual(['50%253A:c']);
  });

  it('SqliteKnowledgeStore: records, damaged records and the copies set aside', async () => {
    const file = freshPath();
    const store = new SqliteKnowledgeStore({ path: file });
    const db = sideConnection(file);
    for (const namespace of ['a', ...OTHERS]) {
      await store.save('k1', sampleKnowledge(), { namespace });
      await store.save('bad', sampleKnowledge(), { namespace });
      const key = namespace === undefined ? 'bad' : `${namespace.replace(':', '%3A')}:bad`;
      db.prepare("UPDATE knowledge_states SET state_json = '{' WHERE key = ?").run(key);
      await store.save('bad', sampleKnowledge(), { namespace, expectedRevision: 0 });
    }
    await store.save('damaged', sampleKnowledge(), { namespace: 'a' });
    db.prepare("UPDATE knowledge_states SET state_json = '{' WHERE key = 'a:damaged'").run();
    const tables = ['knowledge_states', 'knowledge_states_corrupt'];
    const before = dump(db, tables);
    const ofA = (line: string) => line.includes('"a:');
    expect(before.filter(ofA)).toHaveLength(4);
    expect(await store.deleteNamespace('a')).toEqual({ removed: 3 });
    expect(dump(db, tables)).toEqual(before.filter((line) => !ofA(line)));
    await store.close();
  });

  it('SqliteEventStore: streams (live, pruned, expired) with their actions and snapshots; nothing left queued', async () => {
    const clock = manualClock();
    const file = freshPath();
    const store = new SqliteEventStore({
      path: file,
      snapshotEvery: 2,
      defaultTtl: 60,
      now: clock.now,
    });
    const actions = Array.from({ length: 7 }, (_, i) =>
      memoryActions.messageAdded({ role: 'user', content: `m${i}` }),
    );
    await store.append('expired', actions, { expectedVersion: 0, namespace: 'a' });
    clock.advance(61);
    for (const namespace of ['a', ...OTHERS]) {
      await store.append('e1', actions, { expectedVersion: 0, namespace });
      await store.append('pruned', actions, { expectedVersion: 0, namespace });
      await store.prune('pruned', { before: 4, namespace });
    }
    const db = sideConnection(file);
    const idsOfA = db
      .prepare<[], number>("SELECT id FROM event_streams WHERE stream LIKE 'a:%'")
      .pluck()
      .all();
    expect(idsOfA).toHaveLength(3);
    const tables = ['event_streams', 'event_actions', 'event_snapshots', 'event_removals'];
    const before = dump(db, tables);
    // A row of `a`: its stream's row (by key), or an action or snapshot of one of its ids.
    const ofA = (line: string) =>
      line.includes('"a:') || idsOfA.some((id) => line.includes(`s [${id},`));
    expect(await store.deleteNamespace('a')).toEqual({ removed: 3 });
    expect(dump(db, tables)).toEqual(before.filter((line) => !ofA(line)));
    await store.close();
  });
});
