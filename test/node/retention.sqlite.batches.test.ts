import { describe, expect, it } from 'vitest';
import { memoryActions, type RemovedCount } from 'conversation-memory';
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
import { atEveryTurn, batchStep, sideConnection } from '../support/sqliteRetention';

// The SQLite stores' sweep and deleteNamespace remove at most SWEEP_BATCH rows a transaction,
// and let others at the file between two: a second connection, reading at every turn of the
// event loop while the call runs, sees the rows go SWEEP_BATCH at a time (a single transaction
// would show all of them, then none), and writes between two batches without waiting.

const freshPath = tempDatabasePaths('cm-retention-batches-');

/** More rows than three full batches: four transactions at least. */
const TOTAL = 3 * SWEEP_BATCH + 1;

/** `count` rows of the file, a series of `TOTAL` made from one row by SQL (fast, one commit). */
const SERIES = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TOTAL - 1})`;

/** A removal to watch: the call, the counts of the rows it removes, and what it resolves to. */
interface Watched {
  readonly call: () => Promise<RemovedCount>;
  readonly counts: readonly (() => number)[];
  readonly removed: number;
}

/** The call of `kind` on a store (`deleteNamespace` of namespace `a`). */
const callOf =
  (
    store: { sweep(): Promise<RemovedCount>; deleteNamespace(n: string): Promise<RemovedCount> },
    kind: 'sweep' | 'deleteNamespace',
  ) =>
  () => (kind === 'sweep' ? store.sweep() : store.deleteNamespace('a'));

const sessionCase = async (kind: 'sweep' | 'deleteNamespace'): Promise<Watched> => {
  const clock = manualClock();
  const path = freshPath();
  const store = new SqliteSessionStore({ path, defaultTtl: 60, now: clock.now });
  await store.save('s0', sampleState(['alpha']), { namespace: 'a' });
  const db = sideConnection(path);
  db.prepare(
    `${SERIES} INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at, revision)
     SELECT 'a:s' || i, memory_json, message_count, created_at, updated_at, revision
     FROM n, sessions WHERE session_id = 'a:s0'`,
  ).run();
  if (kind === 'sweep') clock.advance(61);
  await store.save('kept', sampleState(['beta']), { namespace: 'b' });
  const count = db
    .prepare<[], number>("SELECT count(*) FROM sessions WHERE session_id < 'b'")
    .pluck();
  return { call: callOf(store, kind), counts: [() => count.get() as number], removed: TOTAL };
};

const knowledgeCase = async (kind: 'sweep' | 'deleteNamespace'): Promise<Watched> => {
  const clock = manualClock();
  const path = freshPath();
  const store = new SqliteKnowledgeStore({ path, defaultTtl: 60, now: clock.now });
  await store.save('k0', sampleKnowledge(), { namespace: 'a' });
  const db = sideConnection(path);
  db.prepare(
    `${SERIES} INSERT INTO knowledge_states (key, state_json, revision, updated_at)
     SELECT 'a:k' || i, state_json, revision, updated_at FROM n, knowledge_states WHERE key = 'a:k0'`,
  ).run();
  if (kind === 'sweep') clock.advance(61);
  await store.save('kept', sampleKnowledge(), { namespace: 'b' });
  const count = db
    .prepare<[], number>("SELECT count(*) FROM knowledge_states WHERE key < 'b'")
    .pluck();
  return { call: callOf(store, kind), counts: [() => count.get() as number], removed: TOTAL };
};

/** Sweep: `TOTAL` expired streams of one action each (their rows, then their actions). */
const expiredStreams = async (): Promise<Watched> => {
  const clock = manualClock();
  const path = freshPath();
  const store = new SqliteEventStore({ path, defaultTtl: 60, now: clock.now });
  const action = memoryActions.messageAdded({ role: 'user', content: 'alpha' });
  await store.append('e0', [action], { expectedVersion: 0 });
  const db = sideConnection(path);
  db.transaction(() => {
    db.prepare(
      `${SERIES} INSERT INTO event_streams (stream, config, created_at, version, updated_at)
       SELECT 'e' || i, config, created_at, version, updated_at FROM n, event_streams WHERE stream = 'e0'`,
    ).run();
    db.prepare(
      `INSERT INTO event_actions (stream, version, action)
       SELECT s.id, 1, (SELECT action FROM event_actions LIMIT 1) FROM event_streams s
       WHERE s.stream <> 'e0'`,
    ).run();
  })();
  clock.advance(61);
  const streams = db.prepare<[], number>('SELECT count(*) FROM event_streams').pluck();
  const actions = db.prepare<[], number>('SELECT count(*) FROM event_actions').pluck();
  return {
    call: () => store.sweep(),
    counts: [() => streams.get() as number, () => actions.get() as number],
    removed: TOTAL,
  };
};

/** deleteNamespace: one stream of `TOTAL` actions (and its snapshots). */
const longStream = async (): Promise<Watched> => {
  const path = freshPath();
  const store = new SqliteEventStore({ path });
  const actions = Array.from({ length: TOTAL }, (_, i) =>
    memoryActions.messageAdded({ role: 'user', content: `m${i}` }),
  );
  await store.append('long', actions, { expectedVersion: 0, namespace: 'a' });
  await store.append('kept', actions.slice(0, 2), { expectedVersion: 0, namespace: 'b' });
  const db = sideConnection(path);
  const count = db
    .prepare<[], number>(
      "SELECT count(*) FROM event_actions WHERE stream NOT IN (SELECT id FROM event_streams WHERE stream = 'b:kept')",
    )
    .pluck();
  return {
    call: () => store.deleteNamespace('a'),
    counts: [() => count.get() as number],
    removed: 1,
  };
};

/** Runs a watched call: what it resolved to, and every count of each table seen while it ran. */
const watch = async (watched: Watched): Promise<{ removed: number; seen: number[][] }> => {
  const seen: number[][] = watched.counts.map(() => []);
  const look = () => watched.counts.forEach((count, i) => seen[i]?.push(count()));
  const { removed } = await atEveryTurn(watched.call, look);
  look();
  return { removed, seen };
};

describe('SQLite retention in bounded batches', () => {
  it.each([
    ['SqliteSessionStore.sweep', () => sessionCase('sweep')],
    ['SqliteSessionStore.deleteNamespace', () => sessionCase('deleteNamespace')],
    ['SqliteKnowledgeStore.sweep', () => knowledgeCase('sweep')],
    ['SqliteKnowledgeStore.deleteNamespace', () => knowledgeCase('deleteNamespace')],
    ['SqliteEventStore.sweep (stream rows, then their actions)', expiredStreams],
    ['SqliteEventStore.deleteNamespace (the actions of one stream)', longStream],
  ] as const)(
    '%s: at most SWEEP_BATCH rows a transaction, and a reader sees each batch land',
    async (_, make) => {
      const watched = await make();
      const { removed, seen } = await watch(watched);
      expect(removed).toBe(watched.removed);
      for (const counts of seen) {
        expect(counts[0]).toBe(TOTAL);
        expect(counts.at(-1)).toBe(0);
        expect(counts.filter((n) => !batchStep(TOTAL, n, SWEEP_BATCH))).toEqual([]);
        // Seen between batches: a single transaction would show TOTAL, then 0.
        expect(new Set(counts.filter((n) => n > 0 && n < TOTAL)).size).toBeGreaterThanOrEqual(2);
      }
    },
  );
});
