/**
 * A store whose place cannot be used in a way that lasts until someone changes it rejects with
 * `StoreUnavailableError` with `transient: false`, whose message says what is wrong and what to
 * do, never "try again later" (#27 item 6): a folder path that names a file, a folder that does
 * not exist, no permission, a file that is not a SQLite database, a database of another schema, a
 * damaged database (a call about one record then rejects with the record's corrupt error), Redis
 * credentials refused or a user without permission. Real parts throughout: a temporary folder,
 * SQLite files through better-sqlite3, a redis-server. The tests may run as root, whom mode bits
 * do not stop: the permission cases then run in a child process as the user nobody (uid 65534),
 * else as this user.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessage,
  createMemory,
  EventCorruptError,
  memoryActions,
  SessionCorruptError,
  StoreUnavailableError,
  userMessage,
} from 'conversation-memory';
import { KnowledgeCorruptError } from 'conversation-memory/knowledge';
import {
  JsonFileSessionStore,
  RedisEventStore,
  RedisKnowledgeStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { sampleKnowledge } from '../arbitraries/knowledge';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';

const root = mkdtempSync(path.join(tmpdir(), 'cm-lasting-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const fresh = (name: string): string => path.join(root, `${++made}-${name}`);

const failureOf = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

interface Lasting {
  readonly api: string;
  readonly store: string;
  readonly id?: string;
  /** What is wrong: the message holds it (a string, or a pattern). */
  readonly reason: string | RegExp;
  /** What to do: the message ends with it after "nothing was written: ". */
  readonly remedy: string;
}

/** The checks every lasting failure passes. */
const expectLasting = (error: unknown, want: Lasting): void => {
  expect(error).toBeInstanceOf(StoreUnavailableError);
  const failure = error as StoreUnavailableError;
  expect(failure).toMatchObject({
    code: 'CM_STORE_UNAVAILABLE',
    transient: false,
    mayHaveWritten: false,
    store: want.store,
    id: want.id,
  });
  expect(failure.cause).toBeDefined();
  expect(failure.message.startsWith(`[conversation-memory] ${want.api}: `)).toBe(true);
  if (typeof want.reason === 'string') expect(failure.message).toContain(want.reason);
  else expect(failure.message).toMatch(want.reason);
  expect(failure.message).toContain(`; nothing was written: ${want.remedy}`);
  expect(failure.message).not.toContain('try again later');
};

const state = addMessage(createMemory(), userMessage('hello')).state;

/** Runs `call` on `store`, then closes it. */
const using = async <S extends { close(): Promise<void> }>(
  store: S,
  call: (store: S) => Promise<unknown>,
): Promise<unknown> => {
  try {
    return await call(store);
  } finally {
    await store.close();
  }
};

describe('JsonFileSessionStore: a folder that cannot be used', () => {
  const store = 'JsonFileSessionStore';

  it('a directory option that names a regular file, or a path under one, is refused at construction', async () => {
    const file = fresh('file');
    writeFileSync(file, 'not a folder');
    expectLasting(await failureOf(() => new JsonFileSessionStore({ directory: file })), {
      api: 'new JsonFileSessionStore',
      store,
      reason: `the session folder ${JSON.stringify(file)} cannot be used: it is a file, not a folder`,
      remedy: 'pass the path of a folder (the store creates a missing one when it is made)',
    });
    for (const under of [path.join(file, 'sessions'), path.join(file, 'a', 'b')]) {
      expectLasting(await failureOf(() => new JsonFileSessionStore({ directory: under })), {
        api: 'new JsonFileSessionStore',
        store,
        reason: `cannot be used: ${JSON.stringify(file)} is a file, not a folder`,
        remedy: 'pass a path under a folder',
      });
    }
  });

  it('a folder removed after the store was made: every write and listing says it no longer exists and that the store creates it only when made', async () => {
    const directory = fresh('gone');
    const sessions = new JsonFileSessionStore({ directory });
    await sessions.save('s1', state);
    rmSync(directory, { recursive: true });
    const calls: [string, string | undefined, () => Promise<unknown>][] = [
      ['save', 's1', () => sessions.save('s1', state)],
      ['delete', 's1', () => sessions.delete('s1')],
      ['list', undefined, () => sessions.list()],
      ['search', undefined, () => sessions.search('hello')],
    ];
    for (const [method, id, call] of calls) {
      expectLasting(await failureOf(call), {
        api: `JsonFileSessionStore.${method}`,
        store,
        ...(id === undefined ? {} : { id }),
        reason: `the session folder ${JSON.stringify(directory)} cannot be used: it no longer exists, and the store creates its folder only when it is made`,
        remedy: 'create the folder again, or make a new store (which creates it)',
      });
    }
    // Reads of one session find nothing there, as they would in an empty folder.
    expect(await sessions.load('s1')).toBeNull();
    expect(await sessions.exists('s1')).toBe(false);
    // Made again, the folder works at once.
    mkdirSync(directory);
    expect(await sessions.save('s1', state)).toEqual({ revision: 1 });
  });

  it('a folder replaced by a regular file after the store was made: every call says so', async () => {
    const directory = fresh('replaced');
    const sessions = new JsonFileSessionStore({ directory });
    await sessions.save('s1', state);
    rmSync(directory, { recursive: true });
    writeFileSync(directory, 'not a folder');
    const calls: [string, string | undefined, () => Promise<unknown>][] = [
      ['save', 's1', () => sessions.save('s1', state)],
      ['load', 's1', () => sessions.load('s1')],
      ['exists', 's1', () => sessions.exists('s1')],
      ['delete', 's1', () => sessions.delete('s1')],
      ['branch', 's2', () => sessions.branch('s1', 's2')],
      ['list', undefined, () => sessions.list()],
      ['search', undefined, () => sessions.search('hello')],
    ];
    for (const [method, id, call] of calls) {
      expectLasting(await failureOf(call), {
        api: `JsonFileSessionStore.${method}`,
        store,
        ...(id === undefined ? {} : { id }),
        reason: 'cannot be used: it is a file, not a folder',
        remedy: 'pass the path of a folder (the store creates a missing one when it is made)',
      });
    }
  });
});

/** Overwrites the page of `table` (page 1 past its header, for `null`: the schema) with garbage. */
const damage = (file: string, table: string | null): void => {
  const db = new Database(file);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const page =
    table === null
      ? 1
      : (db
          .prepare<[string], number>('SELECT rootpage FROM sqlite_master WHERE name = ?')
          .pluck()
          .get(table) as number);
  db.close(); // the last connection: the WAL is checkpointed into the file
  const skip = page === 1 ? 100 : 0;
  const fd = openSync(file, 'r+');
  try {
    writeSync(
      fd,
      Buffer.alloc(pageSize - skip, 0xa5),
      0,
      pageSize - skip,
      (page - 1) * pageSize + skip,
    );
  } finally {
    closeSync(fd);
  }
};

const sqliteStores = [
  {
    store: 'SqliteSessionStore',
    label: 'session database',
    open: (file: string) => new SqliteSessionStore({ path: file }),
    table: 'sessions',
    write: async (file: string) => {
      const store = new SqliteSessionStore({ path: file });
      await store.save('s1', state);
      await store.close();
    },
    readOne: (file: string) => using(new SqliteSessionStore({ path: file }), (s) => s.load('s1')),
    listAll: (file: string) => using(new SqliteSessionStore({ path: file }), (s) => s.list()),
    list: 'list',
    corrupt: SessionCorruptError,
  },
  {
    store: 'SqliteEventStore',
    label: 'event database',
    open: (file: string) => new SqliteEventStore({ path: file }),
    table: 'event_actions',
    write: async (file: string) => {
      const store = new SqliteEventStore({ path: file });
      await store.append('s1', [memoryActions.messageAdded(userMessage('hi'))], {
        expectedVersion: 0,
      });
      await store.close();
    },
    readOne: (file: string) => using(new SqliteEventStore({ path: file }), (s) => s.load('s1')),
    listAll: (file: string) => using(new SqliteEventStore({ path: file }), (s) => s.streams()),
    list: 'streams',
    corrupt: EventCorruptError,
  },
  {
    store: 'SqliteKnowledgeStore',
    label: 'knowledge database',
    open: (file: string) => new SqliteKnowledgeStore({ path: file }),
    table: 'knowledge_states',
    write: async (file: string) => {
      const store = new SqliteKnowledgeStore({ path: file });
      await store.save('s1', sampleKnowledge());
      await store.close();
    },
    readOne: (file: string) => using(new SqliteKnowledgeStore({ path: file }), (s) => s.load('s1')),
    listAll: (file: string) => using(new SqliteKnowledgeStore({ path: file }), (s) => s.list()),
    list: 'list',
    corrupt: KnowledgeCorruptError,
  },
] as const;

const ANOTHER_DATABASE =
  'pass the path of a database this store made, or of a new file (the store creates it); the file was left as it is';
const DAMAGED = {
  reason: 'the database is damaged',
  remedy:
    "restore it from a backup, or recover what it holds with the sqlite3 shell's .recover command; the file was left as it is",
};

describe.each(sqliteStores)('$store: a database file that cannot be used', (kind) => {
  /** The cases at construction: how to make the path, what is wrong, what to do. */
  const cases: [string, () => string, (file: string) => string | RegExp, string][] = [
    [
      'a text file',
      () => {
        const file = fresh('notes.db');
        writeFileSync(file, 'this is not a database, just text long enough to be read'.repeat(20));
        return file;
      },
      () => 'it is not a SQLite database',
      ANOTHER_DATABASE,
    ],
    [
      'a database of another schema',
      () => {
        const file = fresh('other.db');
        const db = new Database(file);
        db.exec(
          'CREATE TABLE sessions (a, b); CREATE TABLE event_streams (x); CREATE TABLE knowledge_states (k)',
        );
        db.close();
        return file;
      },
      () =>
        'it holds tables of another program, or of another version, under the names this store uses',
      ANOTHER_DATABASE,
    ],
    [
      'a missing folder',
      () => path.join(fresh('no'), 'such', 'x.db'),
      (file) =>
        `its folder ${JSON.stringify(path.dirname(file))} does not exist, and the store creates the database file but not its folder`,
      'create the folder, or pass a path in an existing one',
    ],
    [
      'a folder',
      () => {
        const folder = fresh('folder.db');
        mkdirSync(folder);
        return folder;
      },
      () => 'it is a folder, not a file',
      'pass the path of a file (the store creates a missing one)',
    ],
    [
      'a path under a regular file',
      () => {
        const file = fresh('file');
        writeFileSync(file, 'x');
        return path.join(file, 'x.db');
      },
      (file) => `${JSON.stringify(path.dirname(file))} is a file, not a folder`,
      'pass a path under a folder',
    ],
    [
      'a damaged database (its schema page)',
      () => {
        const file = fresh('damaged.db');
        const db = new Database(file);
        db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
        db.close();
        damage(file, null);
        return file;
      },
      () => DAMAGED.reason,
      DAMAGED.remedy,
    ],
  ];

  it.each(cases)(
    '%s is refused at construction, saying what is wrong and what to do',
    async (_, make, reason, remedy) => {
      const file = make();
      const error = await failureOf(() => kind.open(file));
      expectLasting(error, {
        api: kind.store,
        store: kind.store,
        reason: `could not open the ${kind.label} ${JSON.stringify(file)}: ${String(reason(file))}`,
        remedy,
      });
    },
  );

  it('a table damaged after the store was made: a call about one record is its corrupt error, a listing says the database is damaged', async () => {
    const file = fresh('damaged-table.db');
    await kind.write(file);
    damage(file, kind.table);
    const one = await failureOf(() => kind.readOne(file));
    expect(one).toBeInstanceOf(kind.corrupt);
    expect(one).toMatchObject({ location: expect.stringContaining(file) });
    expect((one as { problems: readonly string[] }).problems).toEqual([
      `database: ${DAMAGED.reason}: ${DAMAGED.remedy}`,
    ]);
    expect((one as Error).cause).toMatchObject({ code: 'SQLITE_CORRUPT' });
    expectLasting(await failureOf(() => kind.listAll(file)), {
      api: `${kind.store}.${kind.list}`,
      store: kind.store,
      reason: `the ${kind.label} ${JSON.stringify(file)} cannot be used: ${DAMAGED.reason}`,
      remedy: DAMAGED.remedy,
    });
  });
});

describe('no permission (as another user: nobody when the tests run as root)', () => {
  const asRoot = process.getuid?.() === 0;
  // Outside the project, with its own copy of better-sqlite3 (the JavaScript and the built
  // addon): the other user may not reach the checkout at all (a clone under /root, or in a
  // `mktemp -d` folder, is 0700).
  const workerDir = mkdtempSync(path.join(tmpdir(), 'cm-as-user-'));
  const workerFile = path.resolve(workerDir, 'storeAsUserWorker.mjs');
  const copyPackage = (name: string, parts: readonly string[] = ['']): void => {
    for (const part of parts)
      cpSync(
        path.join('node_modules', name, part),
        path.join(workerDir, 'node_modules', name, part),
        {
          recursive: true,
        },
      );
  };
  afterAll(() => rmSync(workerDir, { recursive: true, force: true }));
  let folder = '';
  beforeAll(async () => {
    await build({
      entryPoints: ['test/support/storeAsUserWorker.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: workerFile,
      external: ['better-sqlite3'],
      logLevel: 'silent',
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
    });
    copyPackage('better-sqlite3', ['package.json', 'lib', 'build/Release/better_sqlite3.node']);
    copyPackage('bindings');
    copyPackage('file-uri-to-path');
    // The worker and its packages must be readable by the other user.
    chmodSync(workerDir, 0o755);
    chmodSync(workerFile, 0o644);
    folder = fresh('read-only');
    mkdirSync(folder);
    for (const [name, Store] of [
      ['s.db', SqliteSessionStore],
      ['e.db', SqliteEventStore],
      ['k.db', SqliteKnowledgeStore],
    ] as const) {
      await new Store({ path: path.join(folder, name) }).close();
    }
    for (const name of ['s.db', 'e.db', 'k.db']) chmodSync(path.join(folder, name), 0o444);
    chmodSync(folder, 0o555);
    chmodSync(root, 0o755);
  }, 60_000);
  afterAll(() => {
    if (folder !== '') chmodSync(folder, 0o755);
  });

  const runWorker = (): Promise<Record<string, Record<string, unknown>>> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [workerFile, folder], {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code !== 0) {
          reject(new Error(`the worker exited with ${code}: ${err}`));
          return;
        }
        const lines = out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        resolve(Object.fromEntries(lines.map((line) => [line['name'] as string, line])));
      });
    });

  it('a folder or database file this process may not write: what is wrong and what to do, for every store', async () => {
    const results = await runWorker();
    const expectRefused = (name: string, reason: string, remedy: string) => {
      const result = results[name];
      expect(result, name).toMatchObject({
        threw: true,
        class: 'StoreUnavailableError',
        code: 'CM_STORE_UNAVAILABLE',
        transient: false,
        mayHaveWritten: false,
      });
      if (asRoot) expect(result?.['uid']).toBe(65534);
      const message = result?.['message'] as string;
      expect(message).toContain(reason);
      expect(message).toContain(`; nothing was written: ${remedy}`);
      expect(message).not.toContain('try again later');
    };
    expectRefused(
      'json: a folder to create in it',
      `the session folder ${JSON.stringify(path.join(folder, 'sessions'))} cannot be used: this process may not create it (permission denied)`,
      'create the folder and give this process read and write access to it, or pass another folder',
    );
    expectRefused(
      'json: a save in it',
      `the session folder ${JSON.stringify(folder)} cannot be used: this process may not read or write it (permission denied)`,
      'give this process read and write access to the folder (its owner, mode or ACL), or pass another folder',
    );
    for (const [label, file] of [
      ['session database', 's.db'],
      ['event database', 'e.db'],
      ['knowledge database', 'k.db'],
    ] as const) {
      expectRefused(
        `${label}: a new file in it`,
        `could not open the ${label} ${JSON.stringify(path.join(folder, 'new.db'))}: this process may not create it, or may not write its folder`,
        'give this process write access to the file and its folder, or pass another path',
      );
      expectRefused(
        `${label}: a read-only file`,
        `could not open the ${label} ${JSON.stringify(path.join(folder, file))}: this process may not write it, or may not write its folder`,
        'give this process write access to the file and its folder, or pass another path',
      );
    }
  }, 60_000);
});

describe('Redis stores: credentials refused, a user without permission', () => {
  let server: RedisTestServer;
  let url = '';
  beforeAll(async () => {
    server = await startRedisServer({ own: true });
    url = server.url;
    const admin = createClient({ url });
    admin.on('error', () => undefined);
    await admin.connect();
    // A user who may only PING, then a password on the default user.
    await admin.sendCommand(['ACL', 'SETUSER', 'limited', 'on', '>limited-pw', '~*', '+ping']);
    await admin.sendCommand(['CONFIG', 'SET', 'requirepass', 'right-pw']);
    admin.destroy();
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
  });

  const withCredentials = (credentials: string): string =>
    url.replace('redis://', `redis://${credentials}@`);

  const stores = [
    [
      'RedisSessionStore',
      (at: string) => new RedisSessionStore({ url: at, commandTimeoutMs: 3_000 }),
      'load',
      (s: RedisSessionStore) => s.load('s1'),
    ],
    [
      'RedisEventStore',
      (at: string) => new RedisEventStore({ url: at, commandTimeoutMs: 3_000 }),
      'append',
      (s: RedisEventStore) => s.append('s1', [], { expectedVersion: 0 }),
    ],
    [
      'RedisKnowledgeStore',
      (at: string) => new RedisKnowledgeStore({ url: at, commandTimeoutMs: 3_000 }),
      'load',
      (s: RedisKnowledgeStore) => s.load('s1'),
    ],
  ] as const;

  it.each([
    [
      'no password',
      () => url,
      'Redis requires a password, and none was given',
      "put the password in the URL (redis://:password@host:port) or the client's options",
    ],
    [
      'a wrong password',
      () => withCredentials(':wrong-pw'),
      'Redis refused the credentials (a wrong user name or password, or a disabled user)',
      "check the user name and password in the URL (redis://user:password@host:port) or the client's options",
    ],
    [
      'a user without the store’s commands',
      () => withCredentials('limited:limited-pw'),
      "the Redis user may not run the store's commands or use its keys",
      'grant the user the commands and keys the store uses (ACL SETUSER; its scripts run with EVALSHA and EVAL), or use another user',
    ],
  ])('%s: every Redis store says what is wrong and what to do', async (_, at, reason, remedy) => {
    for (const [store, make, method, call] of stores) {
      const opened = make(at());
      try {
        const error = await failureOf(() =>
          (call as (s: typeof opened) => Promise<unknown>)(opened),
        );
        expectLasting(error, {
          api: `${store}.${method}`,
          store,
          id: 's1',
          reason: `${store}.${method}: ${reason}, id "s1" (`,
          remedy,
        });
        // No password is echoed.
        expect((error as Error).message).not.toMatch(/right-pw|wrong-pw|limited-pw/);
      } finally {
        await opened.close().catch(() => undefined);
      }
    }
    // The right password works.
    const fine = new RedisSessionStore({ url: withCredentials(':right-pw') });
    try {
      expect(await fine.load('s1')).toBeNull();
    } finally {
      await fine.close();
    }
  });
});
