import { afterAll, afterEach, beforeAll } from 'vitest';
import { StoreUnavailableError } from 'conversation-memory';
import {
  InMemoryKnowledgeStore,
  KnowledgeConflictError,
  type KnowledgeStore,
} from 'conversation-memory/knowledge';
import { RedisKnowledgeStore, SqliteKnowledgeStore } from 'conversation-memory/node';
import { startRedisServer, type RedisTestServer } from './redisServer';
import { tempDatabasePaths } from './sqliteFiles';

/**
 * One knowledge store backend for the agent tests: `pair()` opens two store objects on one fresh
 * backend (a new SQLite file, a new Redis prefix): `store` for the agents, `other` as another
 * program's (the in-memory store has no second object on the same data: `other` is `store`).
 */
export interface KnowledgeBackend {
  readonly name: string;
  readonly pair: () => Promise<{ store: KnowledgeStore; other: KnowledgeStore }>;
}

/**
 * The three real knowledge stores (in-memory, SQLite through better-sqlite3, Redis on a server
 * this file starts), for `describe.each`. Call it at the top level of a test file: it registers
 * the server's start and stop and closes every store a test opened.
 *
 * @example
 * ```ts
 * describe.each(knowledgeBackends())('$name', (backend) => { … });
 * ```
 */
export const knowledgeBackends = (): readonly KnowledgeBackend[] => {
  const opened: KnowledgeStore[] = [];
  let server: RedisTestServer | undefined;
  const freshPath = tempDatabasePaths('cm-kagent-');
  const runId = `cm-kagent:${process.pid}-${Date.now().toString(36)}`;
  let prefixes = 0;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 20_000);
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const keep = <T extends KnowledgeStore>(store: T): T => {
    opened.push(store);
    return store;
  };
  return [
    {
      name: 'InMemoryKnowledgeStore',
      pair: async () => {
        const store = keep(new InMemoryKnowledgeStore());
        return { store, other: store };
      },
    },
    {
      name: 'SqliteKnowledgeStore',
      pair: async () => {
        const path = freshPath();
        return {
          store: keep(new SqliteKnowledgeStore({ path })),
          other: keep(new SqliteKnowledgeStore({ path })),
        };
      },
    },
    {
      name: 'RedisKnowledgeStore',
      pair: async () => {
        const url = (server as RedisTestServer).url;
        const prefix = `${runId}:${++prefixes}:`;
        return {
          store: keep(new RedisKnowledgeStore({ url, prefix })),
          other: keep(new RedisKnowledgeStore({ url, prefix })),
        };
      },
    },
  ];
};

/**
 * A knowledge store that goes to a real one and counts what happened: its next `load`s can be
 * made to fail (a store that is briefly down), and the saves that met a conflict are counted.
 */
export interface WatchedKnowledgeStore extends KnowledgeStore {
  /** The next `count` loads reject with `StoreUnavailableError`. */
  failLoads(count: number): void;
  /** How many saves rejected with `KnowledgeConflictError` so far. */
  readonly conflicts: number;
}

/**
 * `store`, watched (see {@link WatchedKnowledgeStore}).
 *
 * @example
 * ```ts
 * const watched = watchKnowledgeStore(store);
 * watched.failLoads(1); // the next load rejects
 * ```
 */
export const watchKnowledgeStore = (store: KnowledgeStore): WatchedKnowledgeStore => {
  let failing = 0;
  let conflicts = 0;
  return {
    load: async (id, options) => {
      if (failing > 0) {
        failing--;
        throw new StoreUnavailableError('WatchedKnowledgeStore.load', 'the store is down', false);
      }
      return store.load(id, options);
    },
    save: async (id, state, options) => {
      try {
        return await store.save(id, state, options);
      } catch (error) {
        if (error instanceof KnowledgeConflictError) conflicts++;
        throw error;
      }
    },
    delete: (id, options) => store.delete(id, options),
    list: (options) => store.list(options),
    sweep: () => store.sweep(),
    deleteNamespace: (namespace) => store.deleteNamespace(namespace),
    close: () => store.close(),
    failLoads: (count) => {
      failing = count;
    },
    get conflicts() {
      return conflicts;
    },
  };
};
