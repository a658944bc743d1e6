/**
 * A store that cannot reach its backend rejects with one documented class, StoreUnavailableError
 * (with the store, the session or stream, and the cause), never with a bare EACCES/ENOTDIR or a
 * MemoryArgumentError for the environment's failure; a Redis URL of the wrong scheme is refused
 * at construction (#17 §4). What each lasting failure says is in storeLastingFailures.test.ts. Real backends: a temporary folder (the tests may run as root, where
 * chmod does not stop writes, so a folder is made unusable by putting a regular file where it
 * should be), real SQLite files, and a loopback port nothing listens on.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemory,
  isConversationMemoryError,
  MemoryArgumentError,
  memoryActions,
  StoreUnavailableError,
  userMessage,
  addMessage,
} from 'conversation-memory';
import {
  JsonFileSessionStore,
  RedisEventStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { freePort } from '../support/redisServer';

const root = mkdtempSync(path.join(tmpdir(), 'cm-unavailable-'));
afterAll(() => {
  chmodSync(root, 0o700);
  rmSync(root, { recursive: true, force: true });
});

/** A path whose parent is a regular file: nothing can be created or opened under it. */
const underAFile = (name: string): string => {
  const file = path.join(root, `${name}-file`);
  writeFileSync(file, 'not a folder');
  return path.join(file, name);
};

const failureOf = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

/** The checks every environment failure passes. */
const expectUnavailable = (
  error: unknown,
  fields: { store: string; id?: string; api: string; cause?: string },
): void => {
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect(isConversationMemoryError(error)).toBe(true);
  const unavailable = error as StoreUnavailableError;
  expect(unavailable.code).toBe('CM_STORE_UNAVAILABLE');
  expect(unavailable.store).toBe(fields.store);
  expect(unavailable.id).toBe(fields.id);
  expect(unavailable.message).toContain(`[conversation-memory] ${fields.api}: `);
  expect(unavailable.cause).toBeDefined();
  if (fields.cause !== undefined) {
    expect((unavailable.cause as { code?: unknown }).code).toBe(fields.cause);
  }
};

describe('JsonFileSessionStore', () => {
  it('a folder that cannot be created is refused at construction', async () => {
    const error = await failureOf(() => new JsonFileSessionStore({ directory: underAFile('s') }));
    expectUnavailable(error, {
      store: 'JsonFileSessionStore',
      api: 'new JsonFileSessionStore',
      cause: 'ENOTDIR',
    });
    expect((error as StoreUnavailableError).mayHaveWritten).toBe(false);
  });

  it('every method of a store whose folder went away rejects with StoreUnavailableError', async () => {
    const directory = path.join(root, 'gone');
    const store = new JsonFileSessionStore({ directory });
    const state = addMessage(createMemory(), userMessage('hello')).state;
    await store.save('s1', state);
    // The folder is replaced by a regular file: every read and write of it fails (even as root).
    rmSync(directory, { recursive: true });
    writeFileSync(directory, 'not a folder');
    const calls: [string, string | undefined, () => Promise<unknown>][] = [
      ['save', 's1', () => store.save('s1', state)],
      ['load', 's1', () => store.load('s1')],
      ['exists', 's1', () => store.exists('s1')],
      ['delete', 's1', () => store.delete('s1')],
      ['branch', 's2', () => store.branch('s1', 's2')],
      ['list', undefined, () => store.list()],
      ['search', undefined, () => store.search('hello')],
    ];
    for (const [method, id, call] of calls) {
      const error = await failureOf(call);
      expectUnavailable(error, {
        store: 'JsonFileSessionStore',
        api: `JsonFileSessionStore.${method}`,
        ...(id === undefined ? {} : { id }),
      });
      expect((error as StoreUnavailableError).mayHaveWritten).toBe(false);
    }
    // A caller's mistake is still the caller's error, not the environment's.
    await expect(store.load('')).rejects.toThrow('sessionId must not be empty');
    rmSync(directory);
  });

  it.runIf(process.getuid?.() !== 0)('a read-only folder (chmod 0500, not root)', async () => {
    const directory = path.join(root, 'read-only');
    mkdirSync(directory);
    const store = new JsonFileSessionStore({ directory });
    chmodSync(directory, 0o500);
    try {
      const error = await failureOf(() => store.save('s1', createMemory()));
      expectUnavailable(error, {
        store: 'JsonFileSessionStore',
        api: 'JsonFileSessionStore.save',
        id: 's1',
        cause: 'EACCES',
      });
    } finally {
      chmodSync(directory, 0o700);
    }
  });
});

describe('SQLite stores', () => {
  it.each([
    ['a path under a regular file', () => underAFile('x.db')],
    ['a missing folder', () => path.join(root, 'no', 'such', 'folder', 'x.db')],
    ['a folder', () => root],
  ])('a database file that cannot be opened (%s)', async (_, file) => {
    const where = file();
    const session = await failureOf(() => new SqliteSessionStore({ path: where }));
    expectUnavailable(session, { store: 'SqliteSessionStore', api: 'SqliteSessionStore' });
    expect((session as Error).message).toContain(
      `could not open the session database ${JSON.stringify(where)}`,
    );
    const events = await failureOf(() => new SqliteEventStore({ path: where }));
    expectUnavailable(events, { store: 'SqliteEventStore', api: 'SqliteEventStore' });
  });
});

describe('Redis stores', () => {
  it('Redis down (a closed loopback port): StoreUnavailableError naming the store', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const sessions = new RedisSessionStore({ url, commandTimeoutMs: 2_000 });
    const events = new RedisEventStore({ url, commandTimeoutMs: 2_000 });
    try {
      const down = await failureOf(() => sessions.load('s1'));
      expectUnavailable(down, {
        store: 'RedisSessionStore',
        api: 'RedisSessionStore.load',
        id: 's1',
      });
      // A server that is down may come back: this one is transient.
      expect(down).toMatchObject({ transient: true });
      expect((down as Error).message).toContain('nothing was written: try again later');
      expectUnavailable(
        await failureOf(() =>
          events.append('s1', [memoryActions.cleared()], { expectedVersion: 0 }),
        ),
        { store: 'RedisEventStore', api: 'RedisEventStore.append', id: 's1' },
      );
    } finally {
      await sessions.close().catch(() => undefined);
      await events.close().catch(() => undefined);
    }
  });

  it.each(['http://localhost:6379', 'localhost:6379', 'https://user:secret@redis.example:6379'])(
    'a URL of the wrong scheme is refused at construction: %s',
    (url) => {
      for (const make of [
        () => new RedisSessionStore({ url }),
        () => new RedisEventStore({ url }),
        () => new RedisSessionStore({ cluster: { rootNodes: [{ url }] } }),
      ]) {
        const error = (() => {
          try {
            make();
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(error).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message).toMatch(
          /options\.(url|cluster\.rootNodes\[0\]\.url) must be a redis:\/\/ or rediss:\/\/ URL/,
        );
        // The rest of a URL may hold a password: it is never echoed.
        expect((error as Error).message).not.toContain('secret');
      }
    },
  );

  it('redis:// and rediss:// URLs are accepted (no connection is made at construction)', async () => {
    for (const url of ['redis://127.0.0.1:1', 'rediss://127.0.0.1:1', 'REDIS://127.0.0.1:1']) {
      const store = new RedisSessionStore({ url });
      await store.close();
    }
  });
});
