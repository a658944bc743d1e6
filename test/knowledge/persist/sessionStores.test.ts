// Every session store keeps a conversation's knowledge: it saves toDict's JSON, knowledge included,
// and loads it back unchanged; a stored session whose knowledge is damaged is corrupt (load
// rejects with SessionCorruptError naming the path, list skips it, exists reports it), never
// loaded without its facts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessages,
  createMemory,
  InMemorySessionStore,
  type MemoryAction,
  type MemoryState,
  memoryTransition,
  SessionCorruptError,
  type SessionStore,
} from 'conversation-memory';
import {
  JsonFileSessionStore,
  RedisSessionStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { sessionFileName } from '../../../src/node/jsonFile/fileNames';
import { redisKeyLayout } from '../../../src/node/redis/schema';
import { conversationStepsArb, playSteps } from '../../arbitraries/knowledgeActions';
import { rejection, user } from '../../helpers';
import { startRedisServer, type RedisTestServer } from '../../support/redisServer';
import { tempDatabasePaths, withDatabaseFile } from '../../support/sqliteFiles';

const root = mkdtempSync(join(tmpdir(), 'cm-knowledge-sessions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let directories = 0;
const freshDatabase = tempDatabasePaths('cm-knowledge-sqlite-');

let server: RedisTestServer;
let admin: ReturnType<typeof createClient>;
const prefix = `cm-test:knowledge-${process.pid}-${Date.now().toString(36)}:`;
beforeAll(async () => {
  server = await startRedisServer();
  admin = createClient({ url: server.url });
  admin.on('error', () => undefined);
  await admin.connect();
}, 20_000);
afterAll(async () => {
  if (admin === undefined) return;
  for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    if (keys.length > 0) await admin.del(keys);
  }
  admin.destroy();
  await server?.stop();
});

/** Replaces the stored memory JSON of `key` with `edit` of it, in the backend's own way. */
type Damage = (store: SessionStore, key: string, edit: (memory: Memory) => Memory) => Promise<void>;
type Memory = { conversation_memory: { knowledge: { relations: Record<string, unknown>[] } } };

interface Backend {
  readonly make: () => SessionStore;
  /** How the store names the memory in a problem (`memory.`, `memory_json.`). */
  readonly field?: string;
  readonly damage?: Damage;
}

const sqlitePaths = new WeakMap<SessionStore, string>();
let redisStores = 0;

const backends: [string, Backend][] = [
  ['InMemorySessionStore', { make: () => new InMemorySessionStore() }],
  [
    'JsonFileSessionStore',
    {
      make: () => new JsonFileSessionStore({ directory: join(root, `store-${++directories}`) }),
      field: 'memory',
      damage: async (store, key, edit) => {
        const file = join((store as JsonFileSessionStore).directory, sessionFileName(key));
        const record = JSON.parse(readFileSync(file, 'utf8')) as { memory: Memory };
        writeFileSync(file, JSON.stringify({ ...record, memory: edit(record.memory) }));
      },
    },
  ],
  [
    'SqliteSessionStore',
    {
      make: () => {
        const path = freshDatabase();
        const store = new SqliteSessionStore({ path });
        sqlitePaths.set(store, path);
        return store;
      },
      field: 'memory_json',
      damage: async (store, key, edit) =>
        withDatabaseFile(sqlitePaths.get(store) as string, (db) => {
          const json = db
            .prepare<[string], string>('SELECT memory_json FROM sessions WHERE session_id = ?')
            .pluck()
            .get(key) as string;
          db.prepare('UPDATE sessions SET memory_json = ? WHERE session_id = ?').run(
            JSON.stringify(edit(JSON.parse(json) as Memory)),
            key,
          );
        }),
    },
  ],
  [
    'RedisSessionStore',
    {
      make: () => new RedisSessionStore({ url: server.url, prefix: `${prefix}${++redisStores}:` }),
      field: 'memory',
      damage: async (store, key, edit) => {
        const hash = redisKeyLayout((store as RedisSessionStore).prefix).session(key);
        const json = (await admin.hGet(hash, 'memory')) as string;
        await admin.hSet(hash, 'memory', JSON.stringify(edit(JSON.parse(json) as Memory)));
      },
    },
  ],
];

const extracted = (to: number, object: string): MemoryAction => ({
  type: 'knowledge/factsExtracted',
  payload: {
    source: 'relations',
    at: 1000 * (to + 1),
    from: to,
    to,
    triples: [{ subject: 'Alice', relation: 'works_at', object, confidence: 1 }],
  },
});

/** A conversation whose second fact retired the first. */
const withKnowledge = (): MemoryState => {
  let state = addMessages(createMemory({ tokenizer: 'heuristic' }), [
    user('I work at Acme, in Lisbon'),
    user('Now Globex'),
  ]).state;
  state = memoryTransition(state, extracted(0, 'Acme')).state;
  return memoryTransition(state, extracted(1, 'Globex')).state;
};

describe.each(backends)('%s keeps the knowledge', (_name, backend) => {
  it('saves and loads a state with knowledge unchanged', async () => {
    const store = backend.make();
    try {
      const state = withKnowledge();
      await store.save('s1', state);
      expect((await store.load('s1'))?.state).toStrictEqual(state);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(conversationStepsArb(25), async (steps) => {
          const last = playSteps(steps).states.at(-1) ?? createMemory();
          const id = `r${++run}`;
          await store.save(id, last);
          expect((await store.load(id))?.state).toStrictEqual(last);
        }),
        { numRuns: 15 },
      );
    } finally {
      await store.close();
    }
  });

  const { damage, field } = backend;
  if (damage === undefined) return;
  it('reports a damaged knowledge as corruption, naming its path', async () => {
    const store = backend.make();
    try {
      await store.save('good', withKnowledge());
      await store.save('bad', withKnowledge());
      await damage(store, 'bad', (memory) => {
        const { knowledge } = memory.conversation_memory;
        const [first, ...rest] = knowledge.relations;
        return {
          ...memory,
          conversation_memory: {
            knowledge: { ...knowledge, relations: [{ ...first, mentions: 0 }, ...rest] },
          },
        };
      });
      const error = await rejection(store.load('bad'));
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect(error).toMatchObject({ code: 'CM_SESSION_CORRUPT', sessionId: 'bad' });
      expect((error as SessionCorruptError).problems).toEqual([
        `${field}.conversation_memory.knowledge.relations[0].mentions must be an integer ≥ 1, received 0`,
      ]);
      expect((await store.list()).map((entry) => entry.sessionId)).toEqual(['good']);
      expect((await store.search('lisbon')).map((r) => r.sessionId)).toEqual(['good']);
      expect(await store.exists('bad')).toBe(true);
      // A cursor past the conversation is damage too.
      await store.save('past', withKnowledge());
      await damage(store, 'past', (memory) => ({
        ...memory,
        conversation_memory: {
          knowledge: {
            ...memory.conversation_memory.knowledge,
            cursors: { entities: 0, relations: 3 },
          },
        },
      }));
      expect(((await rejection(store.load('past'))) as SessionCorruptError).problems).toEqual([
        `${field}.conversation_memory.knowledge.cursors.relations: must not be past next_position (2), received 3`,
      ]);
    } finally {
      await store.close();
    }
  });
});
