// Every event store replays a conversation's knowledge exactly: knowledge actions are appended,
// read back equal, and the state at every version (from a snapshot, taken every 2 actions here,
// then the actions after it) equals the live one; exportEventLog and importEventLog carry them.
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemory,
  type EventStore,
  exportEventLog,
  importEventLog,
  InMemoryEventStore,
  type MemoryAction,
  memoryActions,
  type MemoryState,
  seek,
} from 'conversation-memory';
import { RedisEventStore, SqliteEventStore } from 'conversation-memory/node';
import { redisEventKeyLayout } from '../../../src/node/redis/schema';
import { conversationStepsArb, playSteps } from '../../arbitraries/knowledgeActions';
import { user } from '../../helpers';
import { collect } from '../../stores/storeSamples';
import { startRedisServer, type RedisTestServer } from '../../support/redisServer';
import { tempDatabasePaths, withDatabaseFile } from '../../support/sqliteFiles';

const SNAPSHOT_EVERY = 2;
const CONFIG = { maxMessages: 5, tokenizer: 'heuristic' } as const;
const freshDatabase = tempDatabasePaths('cm-knowledge-events-');

let server: RedisTestServer;
let admin: ReturnType<typeof createClient>;
const prefix = `cm-test:knowledge-events-${process.pid}-${Date.now().toString(36)}:`;
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

interface Backend {
  readonly make: () => EventStore;
  /** The snapshots stored for a stream, as stored text (none for the in-memory store). */
  readonly snapshots?: (store: EventStore, streamId: string) => Promise<string[]>;
}

const sqlitePaths = new WeakMap<EventStore, string>();
let redisStores = 0;

const backends: [string, Backend][] = [
  ['InMemoryEventStore', { make: () => new InMemoryEventStore({ snapshotEvery: SNAPSHOT_EVERY }) }],
  [
    'SqliteEventStore',
    {
      make: () => {
        const path = freshDatabase();
        const store = new SqliteEventStore({ path, snapshotEvery: SNAPSHOT_EVERY });
        sqlitePaths.set(store, path);
        return store;
      },
      snapshots: async (store, streamId) =>
        withDatabaseFile(sqlitePaths.get(store) as string, (db) =>
          db
            .prepare<[string], string>(
              'SELECT s.state FROM event_snapshots s JOIN event_streams e ON e.id = s.stream WHERE e.stream = ? ORDER BY s.version',
            )
            .pluck()
            .all(streamId),
        ),
    },
  ],
  [
    'RedisEventStore',
    {
      make: () =>
        new RedisEventStore({
          url: server.url,
          prefix: `${prefix}${++redisStores}:`,
          snapshotEvery: SNAPSHOT_EVERY,
        }),
      snapshots: async (store, streamId) => {
        const key = redisEventKeyLayout((store as RedisEventStore).prefix).snapshots(streamId);
        return Object.values(await admin.hGetAll(key));
      },
    },
  ],
];

/** Appends the actions in batches of up to 3, as several runs of an agent would. */
const appendAll = async (store: EventStore, id: string, actions: readonly MemoryAction[]) => {
  for (let from = 0; from < actions.length; from += 3) {
    await store.append(id, actions.slice(from, from + 3), {
      expectedVersion: from,
      config: CONFIG,
    });
  }
};

/** The stream's state at every version and its actions equal the live conversation's. */
const expectSameStream = async (
  store: EventStore,
  id: string,
  actions: readonly MemoryAction[],
  states: readonly MemoryState[],
): Promise<void> => {
  expect((await store.load(id, { atVersion: 0 }))?.state).toStrictEqual(createMemory(CONFIG));
  for (let version = 1; version <= states.length; version++) {
    const loaded = await store.load(id, { atVersion: version });
    expect(loaded?.state).toStrictEqual(states[version - 1]);
  }
  const read = await collect(store.read(id));
  expect(read.map((stored) => stored.version)).toEqual(actions.map((_, i) => i + 1));
  // Equal as data (decodeAction gives plain frozen copies, of another prototype than fc's).
  expect(read.map((stored) => stored.action)).toEqual(actions);
};

const works = (object: string) => ({
  subject: 'Alice',
  relation: 'works_at',
  object,
  confidence: 1,
});

describe.each(backends)('%s replays the knowledge', (_name, backend) => {
  it('loads every version, from its snapshots, equal to the live replay; reads the actions back', async () => {
    const store = backend.make();
    try {
      // An example first: the second fact retires the first, and a snapshot holds both.
      const { actions, states } = playSteps(
        [
          { memory: memoryActions.messagesAdded([user('I work at Acme'), user('Globex now')]) },
          { knowledge: { kind: 'relations', share: 1, limited: false, items: [works('Acme')] } },
          { knowledge: { kind: 'relations', share: 1, limited: false, items: [works('Globex')] } },
        ],
        createMemory(CONFIG),
      );
      await appendAll(store, 'example', actions);
      await expectSameStream(store, 'example', actions, states);
      expect(states.at(-1)?.knowledge?.relations.map((r) => r.retiredBy)).toEqual([
        'superseded',
        null,
      ]);
      if (backend.snapshots !== undefined) {
        const stored = await backend.snapshots(store, 'example');
        expect(stored.length).toBe(1);
        expect(stored[0]).toContain('"knowledge":{');
      }

      let run = 0;
      await fc.assert(
        fc.asyncProperty(conversationStepsArb(20), async (steps) => {
          const played = playSteps(steps, createMemory(CONFIG));
          if (played.actions.length === 0) return;
          const id = `r${++run}`;
          await appendAll(store, id, played.actions);
          await expectSameStream(store, id, played.actions, played.states);
        }),
        { numRuns: 12 },
      );
    } finally {
      await store.close();
    }
  });

  it('exportEventLog and importEventLog carry the knowledge actions', async () => {
    const source = backend.make();
    const target = backend.make();
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(conversationStepsArb(20), async (steps) => {
          const { actions, states } = playSteps(steps, createMemory(CONFIG));
          if (actions.length === 0) return;
          const id = `x${++run}`;
          await appendAll(source, id, actions);
          const log = await exportEventLog(source, id, { snapshotEvery: SNAPSHOT_EVERY });
          if (log === null) throw new Error('the stream was not exported');
          states.forEach((state, i) => expect(seek(log, i + 1)).toStrictEqual(state));
          await importEventLog(target, id, log, { batchSize: 3 });
          await expectSameStream(target, id, actions, states);
        }),
        { numRuns: 8 },
      );
    } finally {
      await source.close();
      await target.close();
    }
  });
});
