/**
 * Erasure on the Postgres stores, read in the tables themselves (issue #30): `deleteNamespace`
 * leaves no row of the namespace anywhere (records, set-aside copies, the search vectors, actions
 * and snapshots of streams taken away earlier) and every other row as it was.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryActions, type MemoryAction } from 'conversation-memory';
import { createKnowledge } from 'conversation-memory/knowledge';
import {
  PostgresEventStore,
  PostgresKnowledgeStore,
  PostgresSessionStore,
} from 'conversation-memory/node';
import { type PostgresTestServer, startPostgresServer } from '../support/postgresServer';
import { CONFIG, sampleState } from '../stores/storeSamples';
import { manualClock } from '../stores/suiteHelpers';

let server: PostgresTestServer;
let admin: pg.Pool;
let counter = 0;
const freshSchema = (): string => `cm_erasure_${++counter}`;

beforeAll(async () => {
  server = await startPostgresServer();
  admin = new pg.Pool({ connectionString: server.url, max: 6 });
  admin.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

const said = (text: string): MemoryAction =>
  memoryActions.messageAdded({ role: 'user', content: text });

/** Every row of a table as JSON text, in order. */
const rowsOf = async (schema: string, table: string, order: string): Promise<string[]> =>
  (await admin.query(`SELECT * FROM "${schema}".${table} ORDER BY ${order}`)).rows.map((row) =>
    JSON.stringify(row),
  );

/** The namespaces the erasure must keep: look-alikes of `a` and no namespace at all. */
const KEPT: readonly (string | undefined)[] = ['a:b', 'a%3Ab', 'ab', 'a_', undefined];

describe('deleteNamespace leaves no row of the namespace in any table, and every other row as it was', () => {
  it('PostgresSessionStore: sessions (damaged and expired ones), their sessions_corrupt copies and search vectors', async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const store = new PostgresSessionStore({ pool: admin, schema, defaultTtl: 60, now: clock.now });
    const s = `"${schema}"`;
    const damage = async (where: string, value: string) =>
      admin.query(`UPDATE ${s}.sessions SET memory_json = '{"x": 1}' WHERE ${where} = $1`, [value]);
    await store.save('expired', sampleState(['alpha old']), { namespace: 'a' });
    clock.advance(61);
    for (const namespace of ['a', ...KEPT]) {
      for (const id of ['s1', 'a:s2', 'aside']) {
        await store.save(id, sampleState([`alpha ${namespace ?? '-'} ${id}`]), { namespace });
      }
    }
    await damage('session_id', 'aside');
    // A save over a damaged row sets it aside, then the session starts afresh.
    for (const namespace of ['a', ...KEPT]) {
      await store.save('aside', sampleState(['alpha again']), { namespace });
    }
    await damage('session_key', 'a:s1');
    expect(await store.asideCount()).toBe(KEPT.length + 1);
    const kept = (rows: string[]) => rows.filter((row) => !row.includes('"session_key":"a:'));
    const before = {
      sessions: kept(await rowsOf(schema, 'sessions', 'session_key')),
      aside: kept(await rowsOf(schema, 'sessions_corrupt', 'aside_id')),
    };
    expect(await store.deleteNamespace('a')).toEqual({ removed: 4 });
    expect({
      sessions: await rowsOf(schema, 'sessions', 'session_key'),
      aside: await rowsOf(schema, 'sessions_corrupt', 'aside_id'),
    }).toEqual(before);
    expect(before.sessions).toHaveLength(3 * KEPT.length);
    const searched = await admin.query(
      `SELECT session_key FROM ${s}.sessions WHERE search_document @@ plainto_tsquery('simple', 'alpha') ORDER BY session_key`,
    );
    expect(searched.rows.map((row) => row.session_key)).not.toContainEqual(
      expect.stringMatching(/^a:/u),
    );
    expect(searched.rows).toHaveLength(3 * KEPT.length);
    await store.close();
  });

  it('PostgresKnowledgeStore: records (damaged and expired ones) and their knowledge_corrupt copies', async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const store = new PostgresKnowledgeStore({
      pool: admin,
      schema,
      defaultTtl: 60,
      now: clock.now,
    });
    await store.save('expired', createKnowledge(), { namespace: 'a' });
    clock.advance(61);
    for (const namespace of ['a', ...KEPT]) {
      await store.save('k1', createKnowledge(), { namespace });
      await store.save('aside', createKnowledge(), { namespace });
    }
    await admin.query(
      `UPDATE "${schema}".knowledge SET state_json = '{"entries": 5}' WHERE record_id = 'aside'`,
    );
    for (const namespace of ['a', ...KEPT]) {
      await store.save('aside', createKnowledge(), { namespace });
    }
    expect(await store.asideCount()).toBe(KEPT.length + 1);
    const kept = (rows: string[]) => rows.filter((row) => !row.includes('"record_key":"a:'));
    const before = {
      records: kept(await rowsOf(schema, 'knowledge', 'record_key')),
      aside: kept(await rowsOf(schema, 'knowledge_corrupt', 'aside_id')),
    };
    expect(await store.deleteNamespace('a')).toEqual({ removed: 3 });
    expect({
      records: await rowsOf(schema, 'knowledge', 'record_key'),
      aside: await rowsOf(schema, 'knowledge_corrupt', 'aside_id'),
    }).toEqual(before);
    expect(before.aside).toHaveLength(KEPT.length);
    await store.close();
  });

  it('PostgresEventStore: streams (pruned, expired, one taken away by a new append) with their actions and snapshots, and event_removals', async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const options = { pool: admin, schema, snapshotEvery: 2, defaultTtl: 60, now: clock.now };
    const store = new PostgresEventStore(options);
    const five = [said('1'), said('2'), said('3'), said('4'), said('5')];
    await store.append('renewed', five, { expectedVersion: 0, namespace: 'a' });
    await store.append('expired', five, { expectedVersion: 0, namespace: 'a' });
    clock.advance(61);
    // The old 'renewed' is taken away by this append and listed for removal.
    await store.append('renewed', five.slice(0, 3), { expectedVersion: 0, namespace: 'a' });
    for (const namespace of ['a', ...KEPT]) {
      await store.append('s1', five, { expectedVersion: 0, namespace, config: CONFIG });
      await store.append('a:s2', five, { expectedVersion: 0, namespace });
      await store.prune('a:s2', { before: 3, namespace });
    }
    const ids = (await admin.query(`SELECT stream FROM "${schema}".event_removals`)).rows;
    expect(ids).toHaveLength(1);
    const tables = [
      ['event_streams', 'stream_key'],
      ['event_actions', 'stream, version'],
      ['event_snapshots', 'stream, version'],
    ] as const;
    const dump = async () => Promise.all(tables.map(([t, order]) => rowsOf(schema, t, order)));
    const ours = await admin.query(
      `SELECT id FROM "${schema}".event_streams WHERE stream_key LIKE 'a:%' UNION SELECT stream FROM "${schema}".event_removals`,
    );
    expect(ours.rows).toHaveLength(5);
    const isOurs = (row: string) =>
      ours.rows.some(({ id }) => row.includes(`"stream":"${id}"`) || row.includes(`"id":"${id}"`));
    const before = (await dump()).map((rows) => rows.filter((row) => !isOurs(row)));
    expect(await store.deleteNamespace('a')).toEqual({ removed: 4 });
    expect(await dump()).toEqual(before);
    expect(await rowsOf(schema, 'event_removals', 'stream')).toEqual([]);
    await store.close();
  });
});
