import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionCorruptError } from 'conversation-memory';
import { SqliteSessionStore } from 'conversation-memory/node';
import { sampleState } from '../stores/storeSamples';
import { tempDatabasePaths, withDatabaseFile } from '../support/sqliteFiles';

/**
 * Issue #15 item 8: a damaged row is never deleted without a copy in `sessions_corrupt`, also
 * when it is expired, on every path that removes rows (load and list collect expired rows, a save
 * replaces a row, a delete removes it) and on those that must not remove anything (search,
 * exists).
 */

const freshPath = tempDatabasePaths('cm-sqlite-expired-');

const COLUMNS = 'session_id, memory_json, message_count, created_at, updated_at, revision';
type Row = Record<string, unknown>;
const rowsOf = (file: string, table: 'sessions' | 'sessions_corrupt'): Row[] =>
  withDatabaseFile(file, (db) => db.prepare(`SELECT ${COLUMNS} FROM ${table}`).all() as Row[]);

/** Ways to damage a row: its memory (not JSON, JSON that does not decode, a blob), its columns. */
const DAMAGE: Record<string, [string, unknown]> = {
  garbage: ['memory_json', '{"max_messages": 20, "mess'],
  role: [
    'memory_json',
    '{"max_messages": 20, "messages": [{"role": "USER", "content": "lisbon"}]}',
  ],
  blob: ['memory_json', Buffer.from('{}')],
  revision: ['revision', 'two'],
  count: ['message_count', -1],
};

const TTL = 60;
const START = 1_764_500_000;

/** Which rows exist, how each is damaged, and which are expired (saved before the others). */
const rowsArb = fc.uniqueArray(
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    damage: fc.constantFrom(undefined, ...Object.keys(DAMAGE)),
    expired: fc.boolean(),
  }),
  { minLength: 1, maxLength: 5, selector: (row) => row.id },
);

const idArb = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const operationArb = fc.oneof(
  fc.constant({ op: 'list' as const }),
  fc.constant({ op: 'search' as const }),
  fc.record({ op: fc.constant('load' as const), id: idArb }),
  fc.record({ op: fc.constant('exists' as const), id: idArb }),
  fc.record({
    op: fc.constant('save' as const),
    id: idArb,
    expected: fc.constantFrom(undefined, 0),
  }),
  fc.record({ op: fc.constant('delete' as const), id: idArb }),
  fc.record({ op: fc.constant('branch' as const), id: idArb, from: idArb }),
);

describe('SqliteSessionStore: a damaged row is never deleted without a copy', () => {
  it('property: after any operations, every damaged row is still there or copied, column for column, into sessions_corrupt', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArb,
        fc.array(operationArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (rows, operations, fts) => {
          const file = freshPath();
          let now = START;
          const store = new SqliteSessionStore({
            path: file,
            defaultTtl: TTL,
            now: () => now,
            fts,
          });
          try {
            // Expired rows are saved first, then the clock moves past their TTL only.
            for (const expired of [true, false]) {
              for (const row of rows.filter((r) => r.expired === expired)) {
                await store.save(row.id, sampleState(['lisbon', row.id]));
              }
              now += TTL;
            }
            now -= TTL / 2;
            withDatabaseFile(file, (db) => {
              for (const row of rows) {
                if (row.damage === undefined) continue;
                const [column, value] = DAMAGE[row.damage] as [string, unknown];
                db.prepare(`UPDATE sessions SET ${column} = ? WHERE session_id = ?`).run(
                  value,
                  row.id,
                );
              }
            });
            const damaged = rowsOf(file, 'sessions').filter((stored) =>
              rows.some((r) => r.id === stored['session_id'] && r.damage !== undefined),
            );
            // What each id holds: absent, live and sound, live and damaged, or expired.
            type Held = 'absent' | 'sound' | 'damaged' | 'expired';
            const model = new Map<string, Held>(
              rows.map((r) => [r.id, r.expired ? 'expired' : r.damage ? 'damaged' : 'sound']),
            );
            const held = (id: string): Held => model.get(id) ?? 'absent';
            const collectExpired = () => {
              for (const [id, h] of model) if (h === 'expired') model.set(id, 'absent');
            };

            for (const operation of operations) {
              switch (operation.op) {
                case 'list':
                  await store.list();
                  collectExpired();
                  break;
                case 'search':
                  await store.search('lisbon');
                  break;
                case 'load': {
                  const loaded: unknown = await store
                    .load(operation.id)
                    .catch((error: unknown) => error);
                  const h = held(operation.id);
                  if (h === 'damaged') expect(loaded).toBeInstanceOf(SessionCorruptError);
                  else if (h === 'sound')
                    expect(loaded).toMatchObject({ state: expect.anything() });
                  else expect(loaded).toBeNull();
                  if (h === 'expired') model.set(operation.id, 'absent');
                  break;
                }
                case 'exists':
                  expect(await store.exists(operation.id)).toBe(
                    held(operation.id) === 'sound' || held(operation.id) === 'damaged',
                  );
                  break;
                case 'save': {
                  const saved = await store
                    .save(operation.id, sampleState(['new']), {
                      expectedRevision: operation.expected,
                    })
                    .then(() => true)
                    .catch(() => false);
                  expect(saved).toBe(
                    operation.expected === undefined || held(operation.id) !== 'sound',
                  );
                  model.set(operation.id, 'sound');
                  break;
                }
                case 'delete':
                  expect(await store.delete(operation.id)).toBe(
                    held(operation.id) === 'sound' || held(operation.id) === 'damaged',
                  );
                  model.set(operation.id, 'absent');
                  break;
                case 'branch': {
                  const source = held(operation.from);
                  const branched = await store
                    .branch(operation.from, operation.id)
                    .then(() => true)
                    .catch(() => false);
                  expect(branched).toBe(source === 'sound');
                  if (source === 'expired') model.set(operation.from, 'absent');
                  if (branched) model.set(operation.id, 'sound');
                  break;
                }
              }
            }

            const kept = [...rowsOf(file, 'sessions'), ...rowsOf(file, 'sessions_corrupt')];
            for (const row of damaged) expect(kept).toContainEqual(row);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an expired damaged row: load and list collect it into sessions_corrupt; search and exists leave it; a save or a delete over it copies it first', async () => {
    let now = START;
    const file = freshPath();
    const store = new SqliteSessionStore({ path: file, defaultTtl: TTL, now: () => now });
    const ids = ['by-load', 'by-list', 'by-search', 'by-save', 'by-delete'];
    for (const id of ids) await store.save(id, sampleState(['lisbon']));
    withDatabaseFile(file, (db) => db.exec(`UPDATE sessions SET memory_json = '{"messages": 1}'`));
    const original = rowsOf(file, 'sessions');
    now += TTL + 1;
    const aside = () => rowsOf(file, 'sessions_corrupt').map((row) => row['session_id']);
    const problems = () =>
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT problems FROM sessions_corrupt').pluck().all(),
      );

    expect(await store.search('lisbon')).toEqual([]);
    expect(await store.exists('by-search')).toBe(false);
    expect(aside()).toEqual([]);
    expect(await store.load('by-load')).toBeNull();
    expect(aside()).toEqual(['by-load']);
    expect(problems()[0]).toContain('memory_json.messages: expected list of messages');
    expect(await store.save('by-save', sampleState(['fresh']), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    expect(await store.delete('by-delete')).toBe(false);
    expect(aside()).toEqual(['by-load', 'by-save', 'by-delete']);
    expect(await store.list()).toEqual([
      expect.objectContaining({ sessionId: 'by-save', messageCount: 1 }),
    ]);
    // list collected the two left: every damaged row is in sessions_corrupt, untouched.
    expect(rowsOf(file, 'sessions_corrupt')).toEqual(
      expect.arrayContaining(original.map((row) => expect.objectContaining(row))),
    );
    expect(rowsOf(file, 'sessions_corrupt')).toHaveLength(5);
    expect(rowsOf(file, 'sessions').map((row) => row['session_id'])).toEqual(['by-save']);
    // A live damaged row deleted on purpose is copied too.
    await store.save('live', sampleState());
    withDatabaseFile(file, (db) =>
      db.exec(`UPDATE sessions SET revision = 0 WHERE session_id = 'live'`),
    );
    expect(await store.delete('live')).toBe(true);
    expect(aside()).toContain('live');
    await store.close();
  });

  it('an expired row that decodes is deleted with its index, and not copied', async () => {
    let now = START;
    const file = freshPath();
    const store = new SqliteSessionStore({ path: file, defaultTtl: TTL, now: () => now });
    await store.save('old', sampleState(['lisbon']));
    now += TTL + 1;
    expect(await store.load('old')).toBeNull();
    expect(rowsOf(file, 'sessions')).toEqual([]);
    expect(rowsOf(file, 'sessions_corrupt')).toEqual([]);
    expect(
      withDatabaseFile(file, (db) =>
        db.prepare('SELECT count(*) FROM session_messages_fts').pluck().get(),
      ),
    ).toBe(0);
    await store.close();
  });
});
