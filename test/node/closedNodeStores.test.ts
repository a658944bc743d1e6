/**
 * The ten Node stores after `close()`: each public method rejects with `MemoryArgumentError`
 * (`Store.method: the store is closed`) before it reads an argument or touches storage, as the
 * in-memory stores do (test/stores/closedStores.test.ts). Every Node store opens its calls
 * through one `StoreCalls` (src/node/storeCalls.ts); this is the behaviour it must keep.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemory,
  type EventStore,
  memoryActions,
  MemoryArgumentError,
  type SessionStore,
  userMessage,
} from 'conversation-memory';
import { createKnowledge, type KnowledgeStore } from 'conversation-memory/knowledge';
import {
  JsonFileSessionStore,
  PostgresEventStore,
  PostgresKnowledgeStore,
  PostgresSessionStore,
  RedisEventStore,
  RedisKnowledgeStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { rejection } from '../helpers';
import { closedMessage, closeTwice, methodsOf, settle, tripwire } from '../support/closedStore';
import { type PostgresTestServer, startPostgresServer } from '../support/postgresServer';
import { type RedisTestServer, startRedisServer } from '../support/redisServer';

let server: RedisTestServer | undefined;
let postgres: PostgresTestServer | undefined;
const directory = mkdtempSync(join(tmpdir(), 'cm-closed-node-'));
const prefix = `cm-closed-${randomUUID().slice(0, 8)}:`;

beforeAll(async () => {
  [server, postgres] = await Promise.all([startRedisServer(), startPostgresServer()]);
}, 60_000);

afterAll(async () => {
  // Leave nothing behind on a shared server (REDIS_URL).
  if (server !== undefined) {
    const admin = createClient({ url: server.url });
    await admin.connect();
    for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length > 0) await admin.del(keys);
    }
    admin.destroy();
  }
  await server?.stop();
  await postgres?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const url = (): string => (server as RedisTestServer).url;
const postgresUrl = (): string => (postgres as PostgresTestServer).url;
/** A fresh schema, so each Postgres store starts empty. */
const schema = (): string => `cm_closed_${randomUUID().slice(0, 8)}`;
/** A fresh key prefix, so each store starts empty on the shared server. */
const fresh = (): string => `${prefix}${randomUUID().slice(0, 8)}:`;
const file = (name: string): string => join(directory, `${name}-${randomUUID().slice(0, 8)}.db`);

/** Saves one session, knowledge state or stream, so that each method would otherwise succeed. */
const withSession = async (store: SessionStore): Promise<object> => {
  await store.save('s1', createMemory());
  return store;
};
const withKnowledge = async (store: KnowledgeStore): Promise<object> => {
  await store.save('s1', createKnowledge());
  return store;
};
const withStream = async (store: EventStore): Promise<object> => {
  await store.append('s1', [memoryActions.messageAdded(userMessage('hi'))], {
    expectedVersion: 0,
  });
  return store;
};

const STORES: readonly { readonly name: string; readonly open: () => Promise<object> }[] = [
  {
    name: 'JsonFileSessionStore',
    open: () => withSession(new JsonFileSessionStore({ directory: join(directory, randomUUID()) })),
  },
  {
    name: 'SqliteSessionStore',
    open: () => withSession(new SqliteSessionStore({ path: file('s') })),
  },
  { name: 'SqliteEventStore', open: () => withStream(new SqliteEventStore({ path: file('e') })) },
  {
    name: 'SqliteKnowledgeStore',
    open: () => withKnowledge(new SqliteKnowledgeStore({ path: file('k') })),
  },
  {
    name: 'RedisSessionStore',
    open: () => withSession(new RedisSessionStore({ url: url(), prefix: fresh() })),
  },
  {
    name: 'RedisEventStore',
    open: () => withStream(new RedisEventStore({ url: url(), prefix: fresh() })),
  },
  {
    name: 'RedisKnowledgeStore',
    open: () => withKnowledge(new RedisKnowledgeStore({ url: url(), prefix: fresh() })),
  },
  {
    name: 'PostgresSessionStore',
    open: () =>
      withSession(new PostgresSessionStore({ connectionString: postgresUrl(), schema: schema() })),
  },
  {
    name: 'PostgresEventStore',
    open: () =>
      withStream(new PostgresEventStore({ connectionString: postgresUrl(), schema: schema() })),
  },
  {
    name: 'PostgresKnowledgeStore',
    open: () =>
      withKnowledge(
        new PostgresKnowledgeStore({ connectionString: postgresUrl(), schema: schema() }),
      ),
  },
];

describe('every Node store after close()', () => {
  it.each(STORES)(
    '$name: every public method rejects with `Store.method: the store is closed`, reading none of its arguments',
    async ({ name, open }) => {
      const store = await open();
      await closeTwice(store);
      const methods = methodsOf(store);
      expect(methods.length).toBeGreaterThanOrEqual(4);
      for (const method of methods) {
        const looks: string[] = [];
        const args = [tripwire(looks), tripwire(looks), tripwire(looks), tripwire(looks)];
        const error = await rejection(settle(store, method, args));
        expect(error, method).toBeInstanceOf(MemoryArgumentError);
        expect((error as Error).message, method).toBe(closedMessage(name, method));
        expect(looks, `${name}.${method} read its arguments`).toEqual([]);
      }
    },
    20_000,
  );

  it.each(STORES)(
    '$name: whatever the arguments, each method rejects the same way',
    async ({ name, open }) => {
      const store = await open();
      await closeTwice(store);
      const methods = methodsOf(store);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...methods),
          fc.array(fc.anything(), { maxLength: 4 }),
          async (method, args) => {
            const error = await rejection(settle(store, method, args));
            expect(error).toBeInstanceOf(MemoryArgumentError);
            expect((error as Error).message).toBe(closedMessage(name, method));
          },
        ),
        { numRuns: 50 },
      );
    },
    20_000,
  );
});
