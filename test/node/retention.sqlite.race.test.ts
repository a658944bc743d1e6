import { describe, expect, it } from 'vitest';
import {
  EventConflictError,
  memoryActions,
  type RemovedCount,
  SessionConflictError,
} from 'conversation-memory';
import { KnowledgeConflictError } from 'conversation-memory/knowledge';
import {
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { SWEEP_BATCH } from 'conversation-memory/store-kit';
import { sampleKnowledge } from '../arbitraries/knowledge';
import { sampleState } from '../stores/storeSamples';
import { manualClock } from '../stores/suiteHelpers';
import { tempDatabasePaths } from '../support/sqliteFiles';
import { atEveryTurn, sideConnection } from '../support/sqliteRetention';

// Writers racing the SQLite stores' sweep and deleteNamespace, as live agents would: each write
// expects the revision (or version) it last saw, between any two of the call's transactions.
// deleteNamespace: a write lands before its record's batch (and is removed with it) or finds
// nothing (a conflict): nothing of the namespace is left, so nothing old comes back. sweep: a
// record written again after the sweep found it expired is live, and stays.

const freshPath = tempDatabasePaths('cm-retention-race-');

/** Records in the namespace: several batches, so the writers land between them. */
const TOTAL = 3 * SWEEP_BATCH + 1;
const SERIES = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL - 1})`;

/** A record to write at each turn: spread over the key range, so some are already removed. */
const spread = (turn: number): number => (turn * 577) % TOTAL;

/** A racing writer: its write of record `i` (expecting what was there), and its conflict class. */
interface Racer {
  readonly write: (i: number) => Promise<unknown>;
  readonly conflict: new (...args: never[]) => Error;
}

/** Races `call` with `racer` writing at every turn; counts the writes that landed and conflicted. */
const race = async (call: () => Promise<RemovedCount>, racer: Racer) => {
  let turn = 0;
  const landed: number[] = [];
  let conflicts = 0;
  const { removed } = await atEveryTurn(call, async () => {
    const i = spread(turn++);
    try {
      await racer.write(i);
      landed.push(i);
    } catch (error) {
      if (!(error instanceof racer.conflict)) throw error;
      conflicts++;
    }
  });
  return { removed, landed, conflicts };
};

const sessionFile = async (ttl?: number) => {
  const clock = manualClock();
  const path = freshPath();
  const options = { path, now: clock.now, ...(ttl === undefined ? {} : { defaultTtl: ttl }) };
  const store = new SqliteSessionStore(options);
  await store.save('s0', sampleState(['old alpha']), { namespace: 'a' });
  const db = sideConnection(path);
  db.prepare(
    `${SERIES} INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at, revision)
     SELECT 'a:s' || i, memory_json, message_count, created_at, updated_at, revision
     FROM n, sessions WHERE session_id = 'a:s0'`,
  ).run();
  const racer = new SqliteSessionStore(options);
  return { clock, store, racer, db };
};

describe('SQLite deleteNamespace raced by live writers: nothing old comes back', () => {
  it('SqliteSessionStore', async () => {
    const { store, racer, db } = await sessionFile();
    const state = sampleState(['old alpha', 'new beta']);
    const result = await race(() => store.deleteNamespace('a'), {
      write: (i) => racer.save(`s${i}`, state, { namespace: 'a', expectedRevision: 1 }),
      conflict: SessionConflictError,
    });
    expect(result.landed.length).toBeGreaterThan(0);
    expect(result.conflicts).toBeGreaterThan(0);
    // The writes that landed were removed with their batch: nothing of `a` anywhere.
    expect(result.removed).toBe(TOTAL);
    for (const table of ['sessions', 'session_search_index']) {
      const key = table === 'sessions' ? 'session_id' : 'session_key';
      expect(
        db.prepare(`SELECT count(*) FROM ${table} WHERE ${key} LIKE 'a:%'`).pluck().get(),
      ).toBe(0);
    }
    expect(db.prepare('SELECT count(*) FROM session_messages_fts').pluck().get()).toBe(0);
    await expect(racer.save('s1', state, { namespace: 'a', expectedRevision: 1 })).rejects.toThrow(
      SessionConflictError,
    );
    await racer.save('s1', sampleState(['fresh']), { namespace: 'a', expectedRevision: 0 });
    expect(await store.search('alpha', { namespace: 'a' })).toEqual([]);
    await Promise.all([store.close(), racer.close()]);
  });

  it('SqliteKnowledgeStore', async () => {
    const path = freshPath();
    const store = new SqliteKnowledgeStore({ path });
    await store.save('k0', sampleKnowledge(), { namespace: 'a' });
    const db = sideConnection(path);
    db.prepare(
      `${SERIES} INSERT INTO knowledge_states (key, state_json, revision, updated_at)
       SELECT 'a:k' || i, state_json, revision, updated_at FROM n, knowledge_states WHERE key = 'a:k0'`,
    ).run();
    const racer = new SqliteKnowledgeStore({ path });
    const result = await race(() => store.deleteNamespace('a'), {
      write: (i) => racer.save(`k${i}`, sampleKnowledge(), { namespace: 'a', expectedRevision: 1 }),
      conflict: KnowledgeConflictError,
    });
    expect(result.landed.length).toBeGreaterThan(0);
    expect(result.conflicts).toBeGreaterThan(0);
    expect(result.removed).toBe(TOTAL);
    expect(db.prepare('SELECT count(*) FROM knowledge_states').pluck().get()).toBe(0);
    await Promise.all([store.close(), racer.close()]);
  });

  it('SqliteEventStore', async () => {
    const path = freshPath();
    const store = new SqliteEventStore({ path });
    const old = memoryActions.messageAdded({ role: 'user', content: 'old alpha' });
    await store.append('e0', [old], { expectedVersion: 0, namespace: 'a' });
    const db = sideConnection(path);
    db.transaction(() => {
      db.prepare(
        `${SERIES} INSERT INTO event_streams (stream, config, created_at, version, updated_at)
         SELECT 'a:e' || i, config, created_at, version, updated_at FROM n, event_streams WHERE stream = 'a:e0'`,
      ).run();
      db.prepare(
        `INSERT INTO event_actions (stream, version, action)
         SELECT s.id, 1, (SELECT action FROM event_actions LIMIT 1) FROM event_streams s WHERE s.stream <> 'a:e0'`,
      ).run();
    })();
    const racer = new SqliteEventStore({ path });
    const late = memoryActions.messageAdded({ role: 'user', content: 'late' });
    const result = await race(() => store.deleteNamespace('a'), {
      write: (i) => racer.append(`e${i}`, [late], { expectedVersion: 1, namespace: 'a' }),
      conflict: EventConflictError,
    });
    expect(result.landed.length).toBeGreaterThan(0);
    expect(result.conflicts).toBeGreaterThan(0);
    expect(result.removed).toBe(TOTAL);
    for (const table of ['event_streams', 'event_actions', 'event_snapshots', 'event_removals']) {
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
    }
    // A new stream under an old id starts at version 1, with none of the old actions.
    expect(await racer.append('e1', [late], { expectedVersion: 0, namespace: 'a' })).toEqual({
      version: 1,
    });
    expect((await store.load('e1', { namespace: 'a' }))?.state.messages).toHaveLength(1);
    await Promise.all([store.close(), racer.close()]);
  });
});

describe('SQLite sweep raced by live writers: what was written again after it found it expired stays', () => {
  it('SqliteSessionStore', async () => {
    const { clock, store, racer } = await sessionFile(60);
    clock.advance(61);
    const fresh = sampleState(['fresh gamma']);
    const result = await race(() => store.sweep(), {
      write: (i) => racer.save(`s${i}`, fresh, { namespace: 'a', expectedRevision: 0 }),
      conflict: SessionConflictError,
    });
    const landed = [...new Set(result.landed)].map((i) => `s${i}`).sort();
    expect(landed.length).toBeGreaterThan(2);
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(landed);
    // A write after its record was removed made a new one: removed and there again.
    expect(result.removed).toBeGreaterThanOrEqual(TOTAL - landed.length);
    expect(result.removed).toBeLessThanOrEqual(TOTAL);
    for (const id of landed)
      expect((await store.load(id, { namespace: 'a' }))?.state).toEqual(fresh);
    await Promise.all([store.close(), racer.close()]);
  });

  it('SqliteKnowledgeStore', async () => {
    const clock = manualClock();
    const path = freshPath();
    const store = new SqliteKnowledgeStore({ path, defaultTtl: 60, now: clock.now });
    await store.save('k0', sampleKnowledge(), { namespace: 'a' });
    const db = sideConnection(path);
    db.prepare(
      `${SERIES} INSERT INTO knowledge_states (key, state_json, revision, updated_at)
       SELECT 'a:k' || i, state_json, revision, updated_at FROM n, knowledge_states WHERE key = 'a:k0'`,
    ).run();
    const racer = new SqliteKnowledgeStore({ path, defaultTtl: 60, now: clock.now });
    clock.advance(61);
    const result = await race(() => store.sweep(), {
      write: (i) => racer.save(`k${i}`, sampleKnowledge(), { namespace: 'a', expectedRevision: 0 }),
      conflict: KnowledgeConflictError,
    });
    const landed = [...new Set(result.landed)].map((i) => `a:k${i}`).sort();
    expect(landed.length).toBeGreaterThan(2);
    expect((await store.list()).map((entry) => entry.key).sort()).toEqual(landed);
    // A write after its record was removed made a new one: removed and there again.
    expect(result.removed).toBeGreaterThanOrEqual(TOTAL - landed.length);
    expect(result.removed).toBeLessThanOrEqual(TOTAL);
    await Promise.all([store.close(), racer.close()]);
  });
});
