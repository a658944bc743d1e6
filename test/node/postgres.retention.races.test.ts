/**
 * Retention on the Postgres stores against what happens at the same time (issue #30): live
 * writers racing `deleteNamespace` (on a slow line) never bring anything old back nor see a
 * half-removed stream, a stream made again between a prune's read and its write never gets the
 * old snapshot, and tables of the released layout (events version 1) are upgraded on first use
 * and keep working.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventConflictError,
  EventCorruptError,
  memoryActions,
  type MemoryAction,
  MemoryArgumentError,
  SessionConflictError,
} from 'conversation-memory';
import { createKnowledge } from 'conversation-memory/knowledge';
import {
  PostgresEventStore,
  PostgresKnowledgeStore,
  PostgresSessionStore,
} from 'conversation-memory/node';
import { type PostgresTestServer, startPostgresServer } from '../support/postgresServer';
import { type SentStatement, watchedPool } from '../support/watchedPool';
import { collect, CONFIG, sampleState } from '../stores/storeSamples';
import { manualClock, rejection } from '../stores/suiteHelpers';

let server: PostgresTestServer;
let admin: pg.Pool;
let counter = 0;
const freshSchema = (): string => `cm_races_${++counter}`;

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

describe('live writers racing deleteNamespace (the eraser on a slow line)', () => {
  const slow = { before: async () => new Promise<void>((done) => setTimeout(done, 15)) };

  it('PostgresEventStore: no reader sees a half-removed stream, and nothing old comes back', async () => {
    const schema = freshSchema();
    const eraser = new PostgresEventStore({
      pool: watchedPool(admin, slow),
      schema,
      snapshotEvery: 4,
    });
    const writer = new PostgresEventStore({
      connectionString: server.url,
      schema,
      snapshotEvery: 4,
    });
    const ids = Array.from({ length: 8 }, (_, i) => `s${i}`);
    for (const id of ids) {
      await writer.append(id, [said(`${id} 1`), said(`${id} 2`)], {
        expectedVersion: 0,
        namespace: 'a',
      });
    }
    const old = (await admin.query(`SELECT id FROM "${schema}".event_streams`)).rows.map(
      (r) => r.id,
    );
    const seen: unknown[] = [];
    let erasing = true;
    const write = async (id: string) => {
      let version = 2;
      while (erasing) {
        try {
          await collect(writer.read(id, { namespace: 'a' }));
          const loaded = await writer.load(id, { namespace: 'a' });
          if (loaded === null) break; // gone: an agent would start afresh
          version = loaded.version;
          await writer.append(id, [said(`${id} ${version + 1}`)], {
            expectedVersion: version,
            namespace: 'a',
          });
        } catch (error) {
          if (!(error instanceof EventConflictError)) seen.push(error);
        }
      }
      return version;
    };
    const writers = Promise.all(ids.map(write));
    const { removed } = await eraser.deleteNamespace('a');
    erasing = false;
    const last = await writers;
    expect(seen.filter((error) => error instanceof EventCorruptError)).toEqual([]);
    expect(seen).toEqual([]);
    expect(removed).toBe(ids.length);
    expect(await writer.streams({ namespace: 'a' })).toEqual([]);
    // A writer still holding its version: a conflict at version 0, never a write.
    const stale = await rejection(
      writer.append('s0', [said('late')], { expectedVersion: last[0] as number, namespace: 'a' }),
    );
    expect(stale).toMatchObject({ expectedVersion: last[0], actualVersion: 0 });
    const left = await admin.query(
      `SELECT (SELECT count(*) FROM "${schema}".event_actions WHERE stream = ANY($1::bigint[])) AS actions,
              (SELECT count(*) FROM "${schema}".event_snapshots WHERE stream = ANY($1::bigint[])) AS snapshots`,
      [old],
    );
    expect(left.rows[0]).toEqual({ actions: '0', snapshots: '0' });
    await writer.close();
    await eraser.close();
  });

  it.each([
    [
      'PostgresSessionStore',
      (schema: string, pool: never) => new PostgresSessionStore({ pool, schema }),
    ],
    [
      'PostgresKnowledgeStore',
      (schema: string, pool: never) => new PostgresKnowledgeStore({ pool, schema }),
    ],
  ] as const)(
    '%s: writers expecting the revision they saw never write after the erasure',
    async (_, make) => {
      const schema = freshSchema();
      const eraser = make(schema, watchedPool(admin, slow) as never);
      const writer = make(schema, admin as never);
      const value = (n: number) =>
        (writer instanceof PostgresSessionStore
          ? sampleState([`v${n}`])
          : createKnowledge()) as never;
      const ids = Array.from({ length: 8 }, (_, i) => `r${i}`);
      for (const id of ids) await writer.save(id, value(0), { namespace: 'a' });
      let erasing = true;
      const write = async (id: string) => {
        let revision = 1;
        while (erasing) {
          const loaded = await writer.load(id, { namespace: 'a' });
          if (loaded === null) return revision;
          revision = loaded.revision;
          await writer
            .save(id, value(revision), { namespace: 'a', expectedRevision: revision })
            .catch((error: unknown) => {
              if (
                !(error instanceof SessionConflictError) &&
                !(error as Error).name.includes('Conflict')
              )
                throw error;
            });
        }
        return revision;
      };
      const writers = Promise.all(ids.map(write));
      await eraser.deleteNamespace('a');
      erasing = false;
      const last = await writers;
      const left = await admin.query(
        `SELECT count(*) AS n FROM "${schema}".${writer instanceof PostgresSessionStore ? 'sessions' : 'knowledge'}`,
      );
      expect(left.rows[0].n).toBe('0');
      for (const [i, id] of ids.entries()) {
        const error = await rejection(
          writer.save(id, value(9), { namespace: 'a', expectedRevision: last[i] as number }),
        );
        expect(error).toMatchObject({ actualRevision: 0 });
      }
      await writer.close();
      await eraser.close();
    },
  );
});

describe('PostgresEventStore.prune and the stream it read', () => {
  it('a stream deleted and made again between the prune’s read and its write never gets the old snapshot', async () => {
    const schema = freshSchema();
    const other = new PostgresEventStore({ pool: admin, schema, snapshotEvery: 100 });
    let remake = false;
    const before = async ({ text }: SentStatement) => {
      if (!remake || !text.includes('FOR UPDATE')) return;
      remake = false;
      await other.delete('s1');
      await other.append('s1', [said('new 1'), said('new 2'), said('new 3')], {
        expectedVersion: 0,
      });
    };
    const store = new PostgresEventStore({
      pool: watchedPool(admin, { before }),
      schema,
      snapshotEvery: 100,
    });
    await store.append(
      's1',
      Array.from({ length: 6 }, (_, i) => said(`old ${i}`)),
      { expectedVersion: 0 },
    );
    remake = true;
    const error = await rejection(store.prune('s1', { before: 3 }));
    expect(error).toBeInstanceOf(MemoryArgumentError);
    expect(await rowsOf(schema, 'event_snapshots', 'stream')).toEqual([]);
    expect((await collect(store.read('s1'))).map((entry) => entry.action)).toEqual([
      said('new 1'),
      said('new 2'),
      said('new 3'),
    ]);
    expect((await store.streams())[0]).not.toHaveProperty('prunedBefore');
    await store.close();
    await other.close();
  });
});

describe('tables of the released layout (events version 1)', () => {
  it('are upgraded on first use: streams read, append, prune, and expire counting from the upgrade', async () => {
    const schema = freshSchema();
    const s = `"${schema}"`;
    const old = new PostgresEventStore({ pool: admin, schema, snapshotEvery: 4 });
    const six = Array.from({ length: 6 }, (_, i) => said(`m${i}`));
    await old.append('s1', six, { expectedVersion: 0, config: CONFIG });
    const loaded = await old.load('s1');
    await old.close();
    // Back to version 1 as released: no updated_at, first_version, event_removals; its trigger.
    await admin.query(
      `ALTER TABLE ${s}.event_streams DROP COLUMN updated_at, DROP COLUMN first_version`,
    );
    await admin.query(`DROP TABLE ${s}.event_removals`);
    await admin.query(`CREATE OR REPLACE FUNCTION ${s}.event_action_removed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN UPDATE ${s}.event_streams SET damaged_at = LEAST(COALESCE(damaged_at, OLD.version), OLD.version) WHERE id = OLD.stream; RETURN NULL; END $fn$`);
    await admin.query(`UPDATE ${s}.schema_versions SET version = 1 WHERE part = 'events'`);
    const upgradedAt = Date.now() / 1000;
    const clock = manualClock(upgradedAt + 30);
    const store = new PostgresEventStore({
      pool: admin,
      schema,
      snapshotEvery: 4,
      defaultTtl: 60,
      now: clock.now,
    });
    expect(await store.load('s1')).toEqual(loaded);
    const versions = await admin.query(
      `SELECT version FROM ${s}.schema_versions WHERE part = 'events'`,
    );
    expect(versions.rows).toEqual([{ version: 2 }]);
    expect(await store.prune('s1', { before: 5 })).toEqual({ removed: 4 });
    expect(await store.load('s1')).toEqual(loaded);
    expect((await store.streams())[0]).toMatchObject({
      streamId: 's1',
      version: 6,
      prunedBefore: 5,
    });
    await store.append('s2', [said('x')], { expectedVersion: 0 });
    clock.advance(40); // 70 s after the upgrade, 40 s after s2's append
    expect(await store.load('s1')).toBeNull();
    expect((await store.streams()).map((info) => info.streamId)).toEqual(['s2']);
    expect(await store.sweep()).toEqual({ removed: 1 });
    await store.close();
  });
});
