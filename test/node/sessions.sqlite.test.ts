import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { either as E } from 'fp-ts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  fromDict,
  MemoryArgumentError,
  MemoryDecodeError,
  type MemoryState,
  type Message,
  SessionConflictError,
  SessionCorruptError,
  type SessionStore,
  StoreUnavailableError,
  toDict,
} from 'conversation-memory';
import { SqliteSessionStore } from 'conversation-memory/node';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';
import { tempDatabasePaths, withDatabaseFile } from '../support/sqliteFiles';

const freshPath = tempDatabasePaths('cm-sqlite-');
const pathOf = new WeakMap<SessionStore, string>();

const open: SqliteSessionStore[] = [];
afterAll(async () => {
  for (const store of open) await store.close();
});
const makeStore = (
  options: Partial<ConstructorParameters<typeof SqliteSessionStore>[0]> = {},
): SqliteSessionStore => {
  const file = options.path ?? freshPath();
  const store = new SqliteSessionStore({ ...options, path: file });
  pathOf.set(store, file);
  open.push(store);
  return store;
};

const withStoreFile = <T>(store: SessionStore, work: (db: Database.Database) => T): T =>
  withDatabaseFile(pathOf.get(store) as string, work);

const stateOf = (messages: readonly Message[]): MemoryState =>
  addMessages(createMemory({ maxMessages: 100, tokenizer: 'heuristic' }), messages).state;
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

// The one conformance suite, on a database file, with search by scanning (the suite's search
// tests assert the scan's term-frequency scores; FTS5 scores are tested below).
sessionStoreConformance('SqliteSessionStore (FTS5, the default)', {
  make: async (options) => makeStore(options),
  searchScoring: 'fts5',
  // Valid JSON that does not decode: the decoder, not only JSON.parse, must catch it.
  corrupt: async (store, key) =>
    withStoreFile(store, (db) => {
      db.prepare('UPDATE sessions SET memory_json = ? WHERE session_id = ?').run(
        '{"max_messages": 20, "messages": [{"role": "USER", "content": "lisbon"}]}',
        key,
      );
    }),
  asideCount: async (store) =>
    withStoreFile(store, (db) =>
      db.prepare<[], number>('SELECT count(*) FROM sessions_corrupt').pluck().get(),
    ) as number,
});

sessionStoreConformance('SqliteSessionStore (scan search, fts: false)', {
  make: async (options) => makeStore({ ...options, fts: false }),
  // Valid JSON that does not decode: the decoder, not only JSON.parse, must catch it.
  corrupt: async (store, key) =>
    withStoreFile(store, (db) => {
      db.prepare('UPDATE sessions SET memory_json = ? WHERE session_id = ?').run(
        '{"max_messages": 20, "messages": [{"role": "USER", "content": "lisbon"}]}',
        key,
      );
    }),
  asideCount: async (store) =>
    withStoreFile(store, (db) =>
      db.prepare<[], number>('SELECT count(*) FROM sessions_corrupt').pluck().get(),
    ) as number,
});

/** bm25 as FTS5 computes it (k1 = 1.2, b = 0.75, idf floored at 1e-6), negated: r ≥ 0. */
const bm25 = (corpus: readonly string[][], doc: readonly string[], terms: string[]): number => {
  const n = corpus.length;
  const avgdl = corpus.reduce((sum, d) => sum + d.length, 0) / n;
  let score = 0;
  for (const term of terms) {
    const hits = corpus.filter((d) => d.includes(term)).length;
    let idf = Math.log((n - hits + 0.5) / (hits + 0.5));
    if (idf <= 0) idf = 1e-6;
    const tf = doc.filter((token) => token === term).length;
    score += (idf * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / avgdl));
  }
  return score;
};
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter(Boolean);
const perMessage = (r: number): number => 1 + r / (1 + r);

describe('SqliteSessionStore: FTS5 search with the reference formula', () => {
  it('scores 1 + r/(1+r) per matching message (r = -bm25), snippets in bm25 order', async () => {
    const store = makeStore();
    expect(store.usesFts5).toBe(true);
    const filler = Array.from({ length: 8 }, (_, i) => user(`filler number ${i} about nothing`));
    // In "trip", the second message ranks better (two hits in a short message).
    const trip = [
      user('we could visit lisbon some day if the weather is kind to us'),
      assistant('lisbon lisbon'),
      { role: 'system', content: 'lisbon in a system message is not indexed' } as Message,
      { role: 'tool', content: 'lisbon from a tool', toolCallId: 'c1' } as Message,
    ];
    const hotel = [user('one hotel'), assistant('')];
    await store.save('trip', stateOf(trip));
    await store.save('hotel', stateOf(hotel), { namespace: 'u1' });
    await store.save('filler', stateOf(filler));

    const corpus = [trip[0], trip[1], hotel[0], ...filler].map((m) => words(m?.content ?? ''));
    const terms = ['lisbon', 'hotel'];
    const r0 = bm25(corpus, corpus[0] as string[], terms);
    const r1 = bm25(corpus, corpus[1] as string[], terms);
    const r2 = bm25(corpus, corpus[2] as string[], terms);
    expect(r1).toBeGreaterThan(r0);

    const results = await store.search('Lisbon HOTEL');
    expect(results.map((r) => r.sessionId)).toEqual(['trip', 'u1:hotel']);
    expect(results[0]?.score).toBeCloseTo(perMessage(r0) + perMessage(r1), 12);
    expect(results[1]?.score).toBeCloseTo(perMessage(r2), 12);
    expect(results[0]?.matchedMessages).toEqual([trip[1]?.content, trip[0]?.content]);
    // A namespace keeps its sessions only, with bare ids; the limit cuts the ranked list.
    expect(await store.search('lisbon hotel', { namespace: 'u1' })).toEqual([
      {
        sessionId: 'hotel',
        id: 'hotel',
        namespace: 'u1',
        score: results[1]?.score,
        matchedMessages: ['one hotel'],
      },
    ]);
    expect((await store.search('lisbon hotel', { limit: 1 })).map((r) => r.sessionId)).toEqual([
      'trip',
    ]);
    expect(await store.search('lisbon', { limit: 0 })).toEqual([]);
    expect(await store.search(' \t ')).toEqual([]);
  });

  it('matches tokens as FTS5 does (the reference: "cat" does not find "cats", diacritics fold)', async () => {
    const fts = makeStore();
    const scan = makeStore({ fts: false });
    for (const store of [fts, scan]) {
      await store.save('a', stateOf([user('two cats'), user('a cat'), user('Kyōto')]));
    }
    expect((await fts.search('cat'))[0]?.matchedMessages).toEqual(['a cat']);
    expect((await scan.search('cat'))[0]).toEqual({
      sessionId: 'a',
      id: 'a',
      score: 2,
      matchedMessages: ['two cats', 'a cat'],
    });
    expect((await fts.search('kyoto'))[0]?.matchedMessages).toEqual(['Kyōto']);
    expect(await scan.search('kyoto')).toEqual([]);
    // Terms are quoted: FTS5 syntax in a query is text, never an error; so is a null character.
    expect(await fts.search('"cat" OR NOT a* (x')).toHaveLength(1);
    expect(await fts.search('\u0000 ^ - NEAR(x) a:cat')).toHaveLength(1);
    expect((await fts.search('two\u0000cats'))[0]?.matchedMessages).toEqual(['two cats']);
  });

  it('skips expired sessions, rows that do not decode, and keeps the index exact across saves', async () => {
    let now = 1_000;
    const store = makeStore({ defaultTtl: 60, now: () => now });
    await store.save('old', stateOf([user('lisbon once')]));
    now += 50;
    await store.save('bad', stateOf([user('lisbon twice')]));
    await store.save('good', stateOf([user('lisbon')]));
    withStoreFile(store, (db) =>
      db.prepare("UPDATE sessions SET memory_json = '{' WHERE session_id = 'bad'").run(),
    );
    now += 20; // 'old' is 70 s old: expired
    expect((await store.search('lisbon')).map((r) => r.sessionId)).toEqual(['good']);

    // Append, trim and edit: the index holds exactly the searchable messages, in order.
    const indexed = (key: string) =>
      withStoreFile(store, (db) =>
        db
          .prepare<[string], string>(
            'SELECT content FROM session_messages_fts WHERE session_key = ? ORDER BY rowid',
          )
          .pluck()
          .all(key),
      );
    let state = addMessages(createMemory({ maxMessages: 3, tokenizer: 'heuristic' }), [
      user('a'),
      assistant('b'),
      user('a'),
    ]).state;
    await store.save('k', state);
    expect(indexed('k')).toEqual(['a', 'b', 'a']);
    state = addMessages(state, [assistant('c'), user('d')]).state; // trims 'a', 'b'
    await store.save('k', state);
    expect(indexed('k')).toEqual(['a', 'c', 'd']);
    await store.save('k', stateOf([user('d'), user('e')]));
    expect(indexed('k')).toEqual(['d', 'e']);
    expect(await store.delete('k')).toBe(true);
    expect(indexed('k')).toEqual([]);
  });

  it('a store without FTS5 leaves the index alone; an FTS5 store backfills what it missed', async () => {
    const file = freshPath();
    const fts = makeStore({ path: file });
    await fts.save('s1', stateOf([user('lisbon old')]));
    const scan = makeStore({ path: file, fts: false });
    expect(scan.usesFts5).toBe(false);
    await scan.save('s1', stateOf([user('porto new')]));
    await scan.save('s2', stateOf([user('porto too')]));
    expect((await fts.search('porto')).map((r) => r.sessionId)).toEqual(['s1', 's2']);
    expect(await fts.search('lisbon')).toEqual([]);
  });
});

describe('SqliteSessionStore: the scan (no FTS5) scores as the reference', () => {
  it('counts every occurrence of every term in user and assistant messages', async () => {
    const store = makeStore({ fts: false });
    await store.save(
      'a',
      stateOf([
        user('Lisbon, lisbon and LISBON'), // 3
        assistant('a hotel in lisbon'), // 2
        { role: 'system', content: 'lisbon hotel' },
        user('nothing'),
      ]),
    );
    await store.save('b', stateOf([user('hotelhotel'), user('say"hi to \\ the \u212Aelvin')]));
    expect(await store.search('lisbon hotel')).toEqual([
      {
        sessionId: 'a',
        id: 'a',
        score: 5,
        matchedMessages: ['Lisbon, lisbon and LISBON', 'a hotel in lisbon'],
      },
      { sessionId: 'b', id: 'b', score: 2, matchedMessages: ['hotelhotel'] },
    ]);
    // Quotes, backslashes and case folding beyond ASCII are matched as in the messages' text.
    expect((await store.search('say"hi \\ kelvin'))[0]?.score).toBe(3);
  });
});

/** Python's json.dumps(value, ensure_ascii=False) with its default separators. */
const pythonDumps = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(
      ([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`,
    );
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(value);
};
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(
    fs.readFileSync(new URL(`../fixtures/reference/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

describe('SqliteSessionStore: a database written by the reference', () => {
  /** The reference's DDL, exactly, and its rows as it writes them. */
  const referenceDatabase = (file: string, withFts: boolean): void =>
    withDatabaseFile(file, (db) => {
      db.pragma('journal_mode = WAL');
      db.exec(`
        CREATE TABLE IF NOT EXISTS sessions (
            session_id TEXT PRIMARY KEY,
            memory_json TEXT NOT NULL,
            message_count INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )`);
      const insert = db.prepare(
        `INSERT INTO sessions (session_id, memory_json, message_count, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(session_id) DO UPDATE SET
             memory_json = excluded.memory_json,
             message_count = excluded.message_count,
             updated_at = excluded.updated_at`,
      );
      const tools = fixture('memory-tools-summary.json');
      const images = fixture('memory-images.json');
      insert.run('trip', pythonDumps(tools), 6, 1795975894.258682, 1795975990.5);
      insert.run(
        'u1:pics',
        pythonDumps(images),
        (images['messages'] as unknown[]).length,
        1795975000.25,
        1795975001.75,
      );
      insert.run(
        'stale',
        pythonDumps({ ...tools, messages: [{ role: 'user', content: 'porto now' }] }),
        1,
        1795975000,
        1795975100,
      );
      if (!withFts) return;
      db.exec(`
        CREATE VIRTUAL TABLE IF NOT EXISTS session_messages_fts USING fts5(content, session_key UNINDEXED);
        CREATE TABLE IF NOT EXISTS session_search_index (session_key TEXT PRIMARY KEY, indexed_at REAL NOT NULL);`);
      const fts = db.prepare(
        'INSERT INTO session_messages_fts (content, session_key) VALUES (?, ?)',
      );
      const mark = db.prepare(
        'INSERT INTO session_search_index (session_key, indexed_at) VALUES (?, ?)',
      );
      // 'trip' indexed by the reference; 'stale' indexed before its last write; 'u1:pics' never.
      for (const message of tools['messages'] as { role: string; content: string }[]) {
        if ((message.role === 'user' || message.role === 'assistant') && message.content) {
          fts.run(message.content, 'trip');
        }
      }
      mark.run('trip', 1795975990.5);
      fts.run('lisbon before', 'stale');
      mark.run('stale', 1795975050);
    });

  it('loads, lists and searches it, reusing its index; saves continue at revision 2', async () => {
    const file = freshPath();
    referenceDatabase(file, true);
    const before = withDatabaseFile(file, (db) =>
      db.prepare("SELECT rowid FROM session_messages_fts WHERE session_key = 'trip'").pluck().all(),
    );
    const store = makeStore({ path: file });
    const trip = await store.load('trip');
    expect(trip).toMatchObject({
      revision: 1,
      createdAt: 1795975894.258682,
      updatedAt: 1795975990.5,
    });
    const expected = fromDict(fixture('memory-tools-summary.json'));
    expect(E.isRight(expected) && expected.right).toEqual(trip?.state);
    expect(toDict(trip?.state as MemoryState)).toEqual(fixture('memory-tools-summary.json'));
    expect((await store.load('pics', { namespace: 'u1' }))?.state.messages.length).toBe(
      (fixture('memory-images.json')['messages'] as unknown[]).length,
    );
    expect(await store.list()).toEqual([
      {
        sessionId: 'stale',
        id: 'stale',
        messageCount: 1,
        createdAt: 1795975000,
        updatedAt: 1795975100,
      },
      {
        sessionId: 'trip',
        id: 'trip',
        messageCount: 6,
        createdAt: 1795975894.258682,
        updatedAt: 1795975990.5,
      },
      {
        sessionId: 'u1:pics',
        id: 'pics',
        namespace: 'u1',
        messageCount: 3,
        createdAt: 1795975000.25,
        updatedAt: 1795975001.75,
      },
    ]);
    // Search backfills 'u1:pics' and re-indexes 'stale'; 'trip' keeps the reference's rows.
    expect((await store.search('kyoto paris')).map((r) => r.sessionId)).toEqual(['trip']);
    expect(await store.search('lisbon')).toEqual([]);
    expect((await store.search('porto')).map((r) => r.sessionId)).toEqual(['stale']);
    expect((await store.search('image', { namespace: 'u1' })).map((r) => r.sessionId)).toEqual([
      'pics',
    ]);
    const after = withDatabaseFile(file, (db) =>
      db.prepare("SELECT rowid FROM session_messages_fts WHERE session_key = 'trip'").pluck().all(),
    );
    expect(after).toEqual(before);
    expect(
      await rejection(store.save('trip', trip?.state as MemoryState, { expectedRevision: 0 })),
    ).toBeInstanceOf(SessionConflictError);
    expect(await store.save('trip', trip?.state as MemoryState, { expectedRevision: 1 })).toEqual({
      revision: 2,
    });
    // The reference can still read the row: the memory is its to_dict() JSON.
    const row = withDatabaseFile(file, (db) =>
      db.prepare("SELECT memory_json, message_count FROM sessions WHERE session_id = 'trip'").get(),
    ) as { memory_json: string; message_count: number };
    expect(JSON.parse(row.memory_json)).toEqual(fixture('memory-tools-summary.json'));
    expect(row.message_count).toBe(6);
  });

  it('a reference database without an FTS index gets one, built from every row', async () => {
    const file = freshPath();
    referenceDatabase(file, false);
    const store = makeStore({ path: file });
    const found = await store.search('weather porto');
    expect(found.map((r) => r.sessionId).sort()).toEqual(['stale', 'trip']);
    expect(found.map((r) => Math.floor(r.score))).toEqual([1, 1]);
    const columns = withDatabaseFile(file, (db) =>
      db.prepare("SELECT name FROM pragma_table_info('sessions')").pluck().all(),
    );
    expect(columns).toEqual([
      'session_id',
      'memory_json',
      'message_count',
      'created_at',
      'updated_at',
      'revision',
    ]);
  });
});

describe('SqliteSessionStore: rows that do not decode', () => {
  const damage = (store: SessionStore, key: string, set: string, value: unknown): void =>
    withStoreFile(store, (db) => {
      db.prepare(`UPDATE sessions SET ${set} = ? WHERE session_id = ?`).run(value, key);
    });

  it('load rejects with the location and the path of each problem', async () => {
    const store = makeStore();
    const file = pathOf.get(store) as string;
    const cases: [string, string, unknown, string[]][] = [
      ['not-json', 'memory_json', '{"max_messages": 20, "mess', ['memory_json: not valid JSON (']],
      [
        'bad-role',
        'memory_json',
        '{"max_messages": 20, "messages": [{"role": "user", "content": "a"}, {"role": "USER", "content": "b"}]}',
        ['memory_json.messages[1].role: '],
      ],
      ['not-a-memory', 'memory_json', '[1, 2]', ['memory_json: expected an object']],
      [
        'blob',
        'memory_json',
        Buffer.from('{}'),
        ['memory_json: expected JSON text, got a blob of 2 bytes'],
      ],
      ['revision', 'revision', 'two', ['revision: expected an integer ≥ 1, got "two"']],
      [
        'updated',
        'updated_at',
        'yesterday',
        ['updated_at: expected Unix seconds, got "yesterday"'],
      ],
    ];
    for (const [key, column, value] of cases) {
      await store.save(key, sampleState(['lisbon']), { namespace: 'ns' });
      damage(store, `ns:${key}`, column, value);
    }
    for (const [key, , , starts] of cases) {
      const error = await rejection(store.load(key, { namespace: 'ns' }));
      expect(error).toBeInstanceOf(SessionCorruptError);
      const corrupt = error as SessionCorruptError;
      expect(corrupt.sessionId).toBe(`ns:${key}`);
      expect(corrupt.location).toBe(`sqlite:${file}#ns:${key}`);
      expect(corrupt.problems.map((p, i) => p.startsWith(starts[i] as string))).toEqual(
        starts.map(() => true),
      );
      expect(await store.exists(key, { namespace: 'ns' })).toBe(true);
      // branch loads its source the same way.
      expect(await rejection(store.branch(key, 'copy', { namespace: 'ns' }))).toBeInstanceOf(
        SessionCorruptError,
      );
    }
    expect(await store.list()).toEqual([]);
    expect(await store.search('lisbon')).toEqual([]);
    expect(await makeStore({ path: file, fts: false }).search('lisbon')).toEqual([]);
  });

  it('a save over a corrupt row copies it into sessions_corrupt first, in the same transaction', async () => {
    const store = makeStore();
    await store.save('s1', sampleState(['lisbon']));
    damage(store, 's1', 'memory_json', 'garbage');
    const original = withStoreFile(store, (db) =>
      db.prepare("SELECT * FROM sessions WHERE session_id = 's1'").get(),
    ) as Record<string, unknown>;
    // A conditional save that fails writes nothing, and moves nothing.
    expect(await rejection(store.save('s1', sampleState(), { expectedRevision: 1 }))).toMatchObject(
      {
        actualRevision: 0,
      },
    );
    const count = () =>
      withStoreFile(store, (db) =>
        db.prepare('SELECT count(*) FROM sessions_corrupt').pluck().get(),
      );
    expect(count()).toBe(0);
    expect(await store.save('s1', sampleState(['fresh']), { expectedRevision: 0 })).toEqual({
      revision: 1,
    });
    const aside = withStoreFile(store, (db) =>
      db.prepare('SELECT * FROM sessions_corrupt').all(),
    ) as Record<string, unknown>[];
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatchObject({ ...original, aside_id: 1 });
    expect(aside[0]?.['problems']).toMatch(/^memory_json: not valid JSON/u);
    expect((await store.load('s1'))?.state.messages[0]?.content).toBe('fresh');
    expect((await store.search('fresh')).map((r) => r.sessionId)).toEqual(['s1']);
  });

  it('a tokenizer this process lacks is not corruption: load says so, list keeps the row', async () => {
    const store = makeStore();
    await store.save('s1', sampleState());
    withStoreFile(store, (db) => {
      const json = db
        .prepare("SELECT memory_json FROM sessions WHERE session_id = 's1'")
        .pluck()
        .get() as string;
      const dict = JSON.parse(json) as Record<string, unknown>;
      dict['conversation_memory'] = {
        ...(dict['conversation_memory'] as object),
        tokenizer: 'not-registered',
      };
      db.prepare("UPDATE sessions SET memory_json = ? WHERE session_id = 's1'").run(
        JSON.stringify(dict),
      );
    });
    const error = await rejection(store.load('s1'));
    expect(error).toBeInstanceOf(MemoryDecodeError);
    expect(error).toMatchObject({ kind: 'tokenizer' });
    expect((error as Error).message).toContain('not-registered');
    expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['s1']);
  });
});

describe('SqliteSessionStore: locks', () => {
  /** Another connection holding the write lock until `release()`. */
  const holdWriteLock = (file: string) => {
    const db = new Database(file);
    db.exec('BEGIN IMMEDIATE');
    return {
      release: () => {
        db.exec('COMMIT');
        db.close();
      },
    };
  };

  it('a save waits for the lock without blocking the event loop, then writes', async () => {
    const store = makeStore();
    await store.save('s1', sampleState());
    const lock = holdWriteLock(pathOf.get(store) as string);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    setTimeout(() => lock.release(), 300);
    const started = Date.now();
    expect(await store.save('s1', sampleState(['later']), { expectedRevision: 1 })).toEqual({
      revision: 2,
    });
    clearInterval(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(ticks).toBeGreaterThan(3); // a blocked loop ticks once at most; a loaded CI machine, fewer than 60
  });

  it('a save that cannot get the lock in time fails with SessionConflictError, never SQLITE_BUSY', async () => {
    const file = freshPath();
    const store = makeStore({ path: file, lockTimeoutMs: 150 });
    await store.save('s1', sampleState());
    const lock = holdWriteLock(file);
    try {
      const error = await rejection(store.save('s1', sampleState(), { expectedRevision: 1 }));
      expect(error).toBeInstanceOf(SessionConflictError);
      expect(error).toMatchObject({ sessionId: 's1', expectedRevision: 1, actualRevision: 1 });
      expect((error as Error).cause).toMatchObject({ code: 'SQLITE_BUSY' });
      expect((error as Error).message).toContain('kept the database locked');
      // Reads do not need the lock (WAL).
      expect((await store.load('s1'))?.revision).toBe(1);
    } finally {
      lock.release();
    }
    expect((await store.save('s1', sampleState(), { expectedRevision: 1 })).revision).toBe(2);
  });

  it('several writer processes appending with retry-on-conflict: every message arrives once', async () => {
    const file = freshPath();
    const writers = 4;
    const count = 30;
    const startAt = Date.now() + 2_500;
    const runs = Array.from(
      { length: writers },
      (_, id) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(
            path.resolve('node_modules/.bin/tsx'),
            ['test/support/sqliteWriter.ts', file, String(id), String(count), String(startAt)],
            { stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
          child.on('close', (code) => resolve({ code, out, err }));
        }),
    );
    const results = await Promise.all(runs);
    for (const result of results) {
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out)).toMatchObject({ saved: count });
    }
    const store = makeStore({ path: file });
    const loaded = await store.load('shared');
    const texts = loaded?.state.messages.map((m) => m.content) ?? [];
    const expected = Array.from({ length: writers }, (_, id) =>
      Array.from({ length: count }, (_, i) => `w${id}-m${i}`),
    ).flat();
    expect([...texts].sort()).toEqual([...expected].sort());
    expect(loaded?.revision).toBe(writers * count);
    // Each writer's messages are in its own order.
    for (let id = 0; id < writers; id++) {
      const own = texts.filter((text) => text?.startsWith(`w${id}-`));
      expect(own).toEqual(Array.from({ length: count }, (_, i) => `w${id}-m${i}`));
    }
    // The index followed every save.
    expect((await store.search(`w0-m${count - 1}`))[0]?.score).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe('SqliteSessionStore: lifecycle and options', () => {
  it('rejects calls after close, and closes once', async () => {
    const store = makeStore();
    await store.save('s1', sampleState());
    await store.close();
    await store.close();
    for (const call of [
      () => store.load('s1'),
      () => store.save('s1', sampleState()),
      () => store.list(),
      () => store.search('x'),
      () => store.exists('s1'),
      () => store.delete('s1'),
      () => store.branch('s1', 's2'),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(MemoryArgumentError);
      expect((error as Error).message).toContain('the store is closed');
    }
  });

  it('refuses bad options and files it cannot open, naming them', () => {
    expect(() => new SqliteSessionStore(undefined as never)).toThrow(MemoryArgumentError);
    expect(() => new SqliteSessionStore({} as never)).toThrow('options.path');
    expect(() => new SqliteSessionStore({ path: freshPath(), fts: 'yes' as never })).toThrow(
      'options.fts',
    );
    expect(() => new SqliteSessionStore({ path: freshPath(), lockTimeoutMs: -1 })).toThrow(
      'options.lockTimeoutMs',
    );
    const missing = path.join(path.dirname(freshPath()), 'no', 'such', 'dir', 'x.db');
    expect(() => new SqliteSessionStore({ path: missing })).toThrow(
      `could not open the session database ${JSON.stringify(missing)}`,
    );
    const notDb = freshPath();
    fs.writeFileSync(
      notDb,
      'this is not a database, just some text that is long enough'.repeat(20),
    );
    // Not the caller's mistake in the arguments but a file to change: see storeLastingFailures.
    expect(() => new SqliteSessionStore({ path: notDb })).toThrow(StoreUnavailableError);
    expect(() => new SqliteSessionStore({ path: notDb })).toThrow('it is not a SQLite database');
  });

  it('uses WAL mode, and deletes expired rows (with their index) when it meets them', async () => {
    let now = 5_000;
    const store = makeStore({ defaultTtl: 10, now: () => now });
    await store.save('a', sampleState(['lisbon']));
    await store.save('b', sampleState(['lisbon']));
    expect(withStoreFile(store, (db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    now += 11;
    expect(await store.load('a')).toBeNull();
    expect(await store.list()).toEqual([]);
    const left = withStoreFile(store, (db) => ({
      rows: db.prepare('SELECT count(*) FROM sessions').pluck().get(),
      fts: db.prepare('SELECT count(*) FROM session_messages_fts').pluck().get(),
      index: db.prepare('SELECT count(*) FROM session_search_index').pluck().get(),
    }));
    expect(left).toEqual({ rows: 0, fts: 0, index: 0 });
  });
});
