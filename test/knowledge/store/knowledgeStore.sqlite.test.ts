import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from 'conversation-memory';
import type { KnowledgeStore } from 'conversation-memory/knowledge';
import { SqliteKnowledgeStore } from 'conversation-memory/node';
import { knowledgeStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleKnowledge } from '../../arbitraries/knowledge';
import { tempDatabasePaths, withDatabaseFile } from '../../support/sqliteFiles';

const freshPath = tempDatabasePaths('cm-kstore-');
const pathOf = new WeakMap<KnowledgeStore, string>();

const makeStore = (
  file = freshPath(),
  options: { defaultTtl?: number; now?: () => number } = {},
): SqliteKnowledgeStore => {
  const store = new SqliteKnowledgeStore({ ...options, path: file });
  pathOf.set(store, file);
  return store;
};

knowledgeStoreConformance('SqliteKnowledgeStore', {
  make: async (options) => makeStore(freshPath(), options),
  sibling: async (store) => makeStore(pathOf.get(store)),
  corrupt: async (store, key, how) => {
    const damaged = JSON.parse(JSON.stringify(sampleKnowledge())) as { nextId: number };
    damaged.nextId = 0;
    withDatabaseFile(pathOf.get(store) as string, (db) =>
      db
        .prepare('UPDATE knowledge_states SET state_json = ? WHERE key = ?')
        .run(how === 'json' ? '{"entities": [' : JSON.stringify(damaged), key),
    );
  },
  asideCount: async (store) => (store as SqliteKnowledgeStore).asideCount(),
});

describe('SqliteKnowledgeStore', () => {
  it('keeps its data in the file: a new store on the same path reads it', async () => {
    const file = freshPath();
    const first = makeStore(file);
    await first.save('u1', sampleKnowledge(), { namespace: 'acme' });
    await first.close();
    const second = makeStore(file);
    expect(await second.load('u1', { namespace: 'acme' })).toEqual({
      state: sampleKnowledge(),
      revision: 1,
    });
    await second.close();
  });

  it('a row whose revision is not a number is corrupt, naming the column', async () => {
    const store = makeStore();
    await store.save('u1', sampleKnowledge());
    withDatabaseFile(pathOf.get(store) as string, (db) =>
      db.prepare("UPDATE knowledge_states SET revision = 'x' WHERE key = 'u1'").run(),
    );
    await expect(store.load('u1')).rejects.toThrow(/revision: expected an integer ≥ 1, got "x"/);
    await store.close();
  });

  it('a file it cannot open is StoreUnavailableError naming the path', () => {
    expect(() => new SqliteKnowledgeStore({ path: '/nonexistent-dir/k.db' })).toThrow(
      StoreUnavailableError,
    );
  });

  it('a write that waits longer than lockTimeoutMs for another connection is a conflict', async () => {
    const file = freshPath();
    const store = new SqliteKnowledgeStore({ path: file, lockTimeoutMs: 50 });
    await store.save('u1', sampleKnowledge());
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.save('u1', sampleKnowledge())).rejects.toThrow(
        "another writer kept the database locked for longer than the store's lockTimeoutMs",
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await store.load('u1'))?.revision).toBe(1);
    await store.close();
  });
});
