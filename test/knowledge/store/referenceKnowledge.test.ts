/**
 * The reference's knowledge files, written by hand from its documented format (selectools'
 * `knowledge.py`: `FileKnowledgeStore._save_all` writes `entries.jsonl` with `json.dumps` of
 * `{id, content, category, importance, persistent, ttl_days, created_at, updated_at, metadata}`,
 * timestamps from `datetime.isoformat()`; `SQLiteKnowledgeStore` keeps the same columns in a
 * `knowledge` table, `persistent` as 0/1 and `metadata` as JSON text).
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeKnowledgeState,
  type KnowledgeEntry,
  readReferenceKnowledgeJsonl,
} from 'conversation-memory/knowledge';
import { SqliteKnowledgeStore } from 'conversation-memory/node';
import { tempDatabasePaths } from '../../support/sqliteFiles';

const ID_A = '3f2b8c1d9e7a4b6c8d0e1f2a3b4c5d6e';
const ID_B = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** Two lines as the reference writes them (the second with every default field spelled out). */
const JSONL =
  `{"id": "${ID_A}", "content": "User prefers dark mode", "category": "preference", "importance": 0.8, "persistent": true, "ttl_days": null, "created_at": "2025-03-01T09:30:00.123456+00:00", "updated_at": "2025-03-02T10:00:00+00:00", "metadata": {"source": "chat"}}\n` +
  `\n` +
  `{"id": "${ID_B}", "content": "Meeting on Friday", "category": "general", "importance": 0.5, "persistent": false, "ttl_days": 7, "created_at": "2025-03-01T11:30:00+02:00", "updated_at": "2025-03-01T11:30:00", "metadata": {}}\n`;

const at = (iso: string): number => Date.parse(iso);

const expected: readonly KnowledgeEntry[] = [
  {
    id: ID_A,
    sources: [],
    confidence: 1,
    mentions: 1,
    validFrom: at('2025-03-01T09:30:00.123Z') + 0.456,
    validTo: null,
    recordedAt: at('2025-03-01T09:30:00.123Z') + 0.456,
    retiredAt: null,
    retiredBy: null,
    supersededBy: null,
    content: 'User prefers dark mode',
    category: 'preference',
    importance: 0.8,
    persistent: true,
    ttlDays: null,
    metadata: { source: 'chat' },
    updatedAt: at('2025-03-02T10:00:00Z'),
  },
  {
    id: ID_B,
    sources: [],
    confidence: 1,
    mentions: 1,
    validFrom: at('2025-03-01T09:30:00Z'),
    validTo: null,
    recordedAt: at('2025-03-01T09:30:00Z'),
    retiredAt: null,
    retiredBy: null,
    supersededBy: null,
    content: 'Meeting on Friday',
    category: 'general',
    importance: 0.5,
    persistent: false,
    ttlDays: 7,
    metadata: {},
    // No offset: UTC, as the reference reads it (never local time).
    updatedAt: at('2025-03-01T11:30:00Z'),
  },
];

describe('readReferenceKnowledgeJsonl', () => {
  it("reads the reference's entries.jsonl as facts in force, in file order", () => {
    const read = readReferenceKnowledgeJsonl(JSONL);
    expect(read).toEqual({ _tag: 'Right', right: expected });
    // They make a valid state as they are.
    const state = {
      entities: [],
      relations: [],
      entries: expected,
      cursors: { entities: 0, relations: 0 },
      nextId: 1,
    };
    expect(decodeKnowledgeState(JSON.parse(JSON.stringify(state)))._tag).toBe('Right');
  });

  it("applies the reference's defaults to the fields it reads with .get()", () => {
    const line = `{"id": "${ID_A}", "content": "x", "created_at": "2025-03-01", "updated_at": "2025-03-01T00:00:00Z"}`;
    const read = readReferenceKnowledgeJsonl(line);
    expect(read._tag).toBe('Right');
    if (read._tag === 'Right') {
      expect(read.right[0]).toMatchObject({
        category: 'general',
        importance: 0.5,
        persistent: false,
        ttlDays: null,
        metadata: {},
        recordedAt: at('2025-03-01T00:00:00Z'),
      });
    }
  });

  it('reports a corrupt line with its line number instead of skipping it', () => {
    const text = `${JSONL}{"id": "${ID_A}x", "content": 5}\nnot json\n{"id": "${ID_A}", "content": "again", "created_at": "2025-03-01", "updated_at": "2025-03-01"}\n`;
    const read = readReferenceKnowledgeJsonl(text);
    expect(read._tag).toBe('Left');
    if (read._tag === 'Left') {
      expect(read.left.problems).toEqual([
        `line 4: id must be an entry id (k<n> or a 32-digit hex uuid), received "${ID_A}x"`,
        'line 4: content must be a string, received 5',
        'line 4: created_at must be an ISO timestamp (datetime.isoformat()), received undefined',
        'line 4: updated_at must be an ISO timestamp (datetime.isoformat()), received undefined',
        expect.stringMatching(/^line 5: not JSON \(SyntaxError: /),
        `line 6: id "${ID_A}" was already read at line 1`,
      ]);
    }
  });

  it('refuses impossible timestamps and out-of-range numbers', () => {
    const line = (fields: string): string =>
      `{"id": "${ID_A}", "content": "x", "created_at": "2025-02-30T00:00:00", "updated_at": "2025-03-01T24:00:00", ${fields}}`;
    const read = readReferenceKnowledgeJsonl(
      line('"importance": 2, "ttl_days": -1, "persistent": 1'),
    );
    expect(read._tag === 'Left' && read.left.problems).toEqual([
      'line 1: importance must be a number from 0 to 1, received 2',
      'line 1: persistent must be true or false, received 1',
      'line 1: ttl_days must be a number of days ≥ 0 or null, received -1',
      'line 1: created_at must be an ISO timestamp (datetime.isoformat()), received "2025-02-30T00:00:00"',
      'line 1: updated_at must be an ISO timestamp (datetime.isoformat()), received "2025-03-01T24:00:00"',
    ]);
  });

  it('reads any timestamp Python writes with isoformat() as the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1000-01-01T00:00:00Z'),
          max: new Date('9000-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (date, micros, offsetMinutes) => {
          // datetime.isoformat(): local wall time at the offset, microseconds when not zero.
          const wall = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
          const fraction = `${wall.slice(20)}${String(micros).padStart(3, '0')}`;
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          const iso = `${wall.slice(0, 19)}.${fraction}${offset}`;
          const read = readReferenceKnowledgeJsonl(
            JSON.stringify({ id: ID_A, content: 'x', created_at: iso, updated_at: iso }),
          );
          expect(read._tag).toBe('Right');
          if (read._tag === 'Right') {
            expect(read.right[0]?.recordedAt).toBeCloseTo(date.getTime() + micros / 1000, 6);
          }
        },
      ),
    );
  });
});

describe('SqliteKnowledgeStore.readReferenceEntries', () => {
  const freshPath = tempDatabasePaths('cm-kref-');

  /** A database with the reference's `knowledge` table, as `SQLiteKnowledgeStore._init_db` makes it. */
  const referenceDatabase = (rows: readonly unknown[][]): string => {
    const file = freshPath();
    const db = new Database(file);
    db.exec(`CREATE TABLE IF NOT EXISTS knowledge (
      id TEXT PRIMARY KEY, content TEXT NOT NULL, category TEXT DEFAULT 'general',
      importance REAL DEFAULT 0.5, persistent INTEGER DEFAULT 0, ttl_days INTEGER,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, metadata TEXT DEFAULT '{}')`);
    const insert = db.prepare('INSERT INTO knowledge VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const row of rows) insert.run(...row);
    db.close();
    return file;
  };

  it("reads the reference's knowledge table as the same facts as its JSONL file", async () => {
    const file = referenceDatabase([
      [
        ID_A,
        'User prefers dark mode',
        'preference',
        0.8,
        1,
        null,
        '2025-03-01T09:30:00.123456+00:00',
        '2025-03-02T10:00:00+00:00',
        '{"source": "chat"}',
      ],
      [
        ID_B,
        'Meeting on Friday',
        'general',
        0.5,
        0,
        7,
        '2025-03-01T11:30:00+02:00',
        '2025-03-01T11:30:00',
        '{}',
      ],
    ]);
    const store = new SqliteKnowledgeStore({ path: file });
    expect(await store.readReferenceEntries()).toEqual({ _tag: 'Right', right: expected });
    // The store's own records live beside it, in their own table.
    await store.save('u1', {
      entities: [],
      relations: [],
      entries: expected,
      cursors: { entities: 0, relations: 0 },
      nextId: 1,
    });
    expect((await store.load('u1'))?.state.entries).toEqual(expected);
    await store.close();
  });

  it('names a row that does not read by its number and id; a file without the table has none', async () => {
    const file = referenceDatabase([
      [ID_A, 'ok', 'general', 0.5, 0, null, '2025-03-01', '2025-03-01', '{}'],
      [ID_B, 'bad', 'general', 0.5, 0, null, 'yesterday', '2025-03-01', '{oops'],
    ]);
    const store = new SqliteKnowledgeStore({ path: file });
    const read = await store.readReferenceEntries();
    expect(read._tag === 'Left' && read.left.problems).toEqual([
      `knowledge row 2 (id "${ID_B}"): metadata is not JSON text: "{oops"`,
    ]);
    await store.close();
    const empty = new SqliteKnowledgeStore({ path: freshPath() });
    expect(await empty.readReferenceEntries()).toEqual({ _tag: 'Right', right: [] });
    await empty.close();
  });
});
