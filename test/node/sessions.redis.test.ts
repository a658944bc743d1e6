import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessages,
  MemoryArgumentError,
  SessionConflictError,
  SessionCorruptError,
  SessionIdError,
  type SessionStore,
  StoreUnavailableError,
  toDict,
  userMessage,
} from 'conversation-memory';
import { RedisSessionStore } from 'conversation-memory/node';
import { sessionStoreConformance } from 'conversation-memory/store-kit/testing';
import { redisKeyLayout } from '../../src/node/redis/schema';
import { startRedisServer, type RedisTestServer } from '../support/redisServer';
import { settledCount } from '../support/redisClientCount';
import { appendWithRetry } from '../support/sessionAppend';
import { sampleState } from '../stores/storeSamples';
import { rejection } from '../helpers';

type Client = ReturnType<typeof createClient>;

let server: RedisTestServer;
let admin: Client;
let connected = false;
const runId = `cm-test:${process.pid}-${Date.now().toString(36)}`;
let counter = 0;
/** A prefix no other test (nor another run on a shared REDIS_URL) uses. */
const freshPrefix = (label = ''): string => `${runId}:${++counter}${label}:`;

const opened: RedisSessionStore[] = [];
const clients: Client[] = [];
const store = (options: Partial<ConstructorParameters<typeof RedisSessionStore>[0]> = {}) => {
  const made = new RedisSessionStore({ url: server.url, prefix: freshPrefix(), ...options });
  opened.push(made);
  return made;
};
const client = async (options: Parameters<typeof createClient>[0] = {}): Promise<Client> => {
  const made = createClient({ url: server.url, ...options });
  made.on('error', () => undefined);
  await made.connect();
  clients.push(made);
  return made;
};

beforeAll(async () => {
  server = await startRedisServer();
  admin = await client();
  connected = true;
}, 20_000);

afterEach(async () => {
  for (const made of opened.splice(0)) await made.close();
});

afterAll(async () => {
  // Leave nothing behind on a shared server (REDIS_URL).
  if (!connected) return; // no server: beforeAll failed, and said why
  for await (const keys of admin.scanIterator({ MATCH: `${runId}:*`, COUNT: 1000 })) {
    if (keys.length > 0) await admin.del(keys);
  }
  for (const made of clients) made.destroy();
  await server?.stop();
});

const hashOf = (made: RedisSessionStore, key: string): string =>
  redisKeyLayout(made.prefix).session(key);

/** A key's type and value, to tell whether a record was kept intact. */
const contentOf = async (key: string): Promise<[string, unknown]> => {
  const type = await admin.type(key);
  if (type === 'hash') return [type, await admin.hGetAll(key)];
  if (type === 'list') return [type, await admin.lRange(key, 0, -1)];
  return [type, await admin.get(key)];
};

/** Replaces the memory of a stored session with JSON that does not decode. */
const corruptMemory = async (made: SessionStore, key: string): Promise<void> => {
  await admin.hSet(
    hashOf(made as RedisSessionStore, key),
    'memory',
    '{"max_messages": 5, "messages": [{"role": "USER", "content": "x"}]}',
  );
};

sessionStoreConformance('RedisSessionStore (own client from a URL)', {
  make: async (options) => store(options),
  corrupt: corruptMemory,
  asideCount: async (made) => (await (made as RedisSessionStore).asideKeys()).length,
});

sessionStoreConformance('RedisSessionStore (a given RESP3 client that maps strings to Buffers)', {
  make: async (options) =>
    store({
      ...options,
      url: undefined,
      client: await client({
        RESP: 3,
        commandOptions: { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } },
      }),
    }),
  corrupt: corruptMemory,
  asideCount: async (made) => (await (made as RedisSessionStore).asideKeys()).length,
});

describe('RedisSessionStore: key layout', () => {
  it('keeps one hash per session at ${prefix}{${key}}s, with the documented fields', async () => {
    const made = store({ now: () => 1_764_500_000.25 });
    const state = sampleState();
    await made.save('s1', state, { namespace: 'u1' });
    await made.save('plain', state);
    expect(await admin.hGetAll(hashOf(made, 'u1:s1'))).toEqual({
      memory: JSON.stringify(toDict(state)),
      revision: '1',
      created_at: '1764500000.25',
      updated_at: '1764500000.25',
      session_id: 's1',
      namespace: 'u1',
    });
    expect(Object.keys(await admin.hGetAll(hashOf(made, 'plain'))).sort()).toEqual(
      ['created_at', 'memory', 'revision', 'session_id', 'updated_at'].sort(),
    );
    const all = [];
    for await (const keys of admin.scanIterator({ MATCH: `${made.prefix}*` })) all.push(...keys);
    expect(all.sort()).toEqual([`${made.prefix}{plain}s`, `${made.prefix}{u1:s1}s`]);
    expect(await admin.ttl(hashOf(made, 'plain'))).toBe(-1);
  });

  it('ids cannot collide with each other or with metadata (the reference’s __meta__ did)', async () => {
    const made = store();
    const ids = [
      'x',
      '__meta__x',
      '__meta__',
      's:x',
      'corrupt:x',
      'corrupt:x:1764500000:abcd',
      // Hash-tag look-alikes: braces and the tag's own escape.
      '{',
      '}',
      '{}',
      'x}s',
      '}corrupt:1:a',
      '%7D',
      '%25',
      '*',
      'a*',
      'a?',
      '[ab]',
      'a',
      'b',
      '\\',
      'a\\*',
      's',
    ];
    for (const [i, id] of ids.entries()) await made.save(id, sampleState([`text ${i}`]));
    await made.save('x', sampleState(['in __meta__']), { namespace: '__meta__' });
    await made.save('*', sampleState(['in *']), { namespace: '*' });
    for (const [i, id] of ids.entries()) {
      expect((await made.load(id))?.state.messages[0]?.content).toBe(`text ${i}`);
    }
    expect((await made.load('x', { namespace: '__meta__' }))?.state.messages[0]?.content).toBe(
      'in __meta__',
    );
    const listed = (await made.list()).map((entry) => [entry.namespace ?? '', entry.id].join(' '));
    expect([...listed].sort()).toEqual([...ids.map((id) => ` ${id}`), '__meta__ x', '* *'].sort());
    // A glob id deletes only itself.
    expect(await made.delete('*')).toBe(true);
    expect(await made.delete('a?')).toBe(true);
    expect((await made.list()).length).toBe(ids.length);
    expect(await made.exists('a*')).toBe(true);
    expect(await made.exists('ab')).toBe(false);
    // search with a glob namespace sees only that namespace.
    await made.save('y', sampleState(['in a']), { namespace: 'a' });
    expect((await made.search('in', { namespace: '*' })).map((r) => r.sessionId)).toEqual(['*']);
    expect(await made.asideKeys()).toEqual([]);
  });

  it('a prefix with glob characters matches only itself in SCAN', async () => {
    const base = freshPrefix('glob');
    const globbed = store({ prefix: `${base}[ab]*?\\:` });
    // What the unescaped pattern `${base}[ab]*?\:s:*` would also match:
    const neighbour = store({ prefix: `${base}a-xyz:` });
    const other = store({ prefix: `${base}b:` });
    await globbed.save('mine', sampleState(['lisbon']));
    await neighbour.save('theirs', sampleState(['lisbon']));
    await other.save('others', sampleState(['lisbon']));
    expect((await globbed.list()).map((entry) => entry.sessionId)).toEqual(['mine']);
    expect((await globbed.search('lisbon')).map((r) => r.sessionId)).toEqual(['mine']);
    expect((await neighbour.list()).map((entry) => entry.sessionId)).toEqual(['theirs']);
    await admin.set(`${base}a-xyz:{z}corrupt:1:abcd`, 'aside of another store');
    expect(await globbed.asideKeys()).toEqual([]);
  });

  it('refuses ids that UTF-8 cannot keep distinct (lone surrogates)', async () => {
    const made = store();
    for (const call of [
      () => made.save('\uD800', sampleState()),
      () => made.load('a\uDFFFb'),
      () => made.exists('s1', { namespace: '\uD83D' }),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(SessionIdError);
      expect((error as Error).message).toContain('well-formed Unicode');
    }
    // A surrogate pair is fine.
    await made.save('😀', sampleState());
    expect(await made.exists('😀')).toBe(true);
  });
});

describe('RedisSessionStore: damaged records', () => {
  const damages: [string, (hash: string) => Promise<unknown>, string][] = [
    ['a string key', (hash) => admin.del(hash).then(() => admin.set(hash, 'x')), 'a Redis string'],
    ['a list key', (hash) => admin.del(hash).then(() => admin.rPush(hash, 'x')), 'a Redis list'],
    ['memory that is not JSON', (hash) => admin.hSet(hash, 'memory', '{"max'), 'memory: not JSON'],
    [
      'memory that does not decode',
      (hash) => admin.hSet(hash, 'memory', '{"max_messages": 5, "messages": [{"role": "USER"}]}'),
      'memory.messages[0].role',
    ],
    ['a bad revision', (hash) => admin.hSet(hash, 'revision', '0x2'), 'revision: expected'],
    ['no updated_at', (hash) => admin.hDel(hash, 'updated_at'), 'updated_at: expected'],
    ['no memory', (hash) => admin.hDel(hash, 'memory'), 'memory: missing'],
    [
      'a timestamp with a leading space (Lua and JS refuse it alike)',
      (hash) => admin.hSet(hash, 'created_at', ' 1'),
      'created_at',
    ],
    [
      'a session_id that does not make the key',
      (hash) => admin.hSet(hash, 'session_id', 'other'),
      'do not make the key "bad"',
    ],
  ];

  for (const [what, damage, problem] of damages) {
    it(`${what}: load rejects, list and search skip, exists reports, a save moves it aside`, async () => {
      const made = store();
      await made.save('good', sampleState(['lisbon']));
      await made.save('bad', sampleState(['lisbon']));
      const hash = hashOf(made, 'bad');
      await damage(hash);
      const content = await contentOf(hash);
      const error = await rejection(made.load('bad'));
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect(error).toMatchObject({ code: 'CM_SESSION_CORRUPT', sessionId: 'bad', location: hash });
      expect((error as SessionCorruptError).problems.join('\n')).toContain(problem);
      expect((await made.list()).map((entry) => entry.sessionId)).toEqual(['good']);
      expect((await made.search('lisbon')).map((r) => r.sessionId)).toEqual(['good']);
      expect(await made.exists('bad')).toBe(true);
      // A stale conditional save changes nothing: the record is not even moved.
      expect(
        await rejection(made.save('bad', sampleState(), { expectedRevision: 1 })),
      ).toMatchObject({
        actualRevision: 0,
      });
      expect(await made.asideKeys()).toEqual([]);
      expect(await contentOf(hash)).toEqual(content);
      // A save that goes ahead moves it aside, intact, then writes revision 1.
      expect(await made.save('bad', sampleState(['fresh']), { expectedRevision: 0 })).toEqual({
        revision: 1,
      });
      const aside = await made.asideKeys();
      expect(aside).toHaveLength(1);
      expect(aside[0]?.startsWith(`${made.prefix}{bad}corrupt:`)).toBe(true);
      expect(await contentOf(aside[0] as string)).toEqual(content);
      expect((await made.load('bad'))?.state.messages[0]?.content).toBe('fresh');
    });
  }

  it('a record damaged after this store loaded it is still moved aside, not overwritten', async () => {
    const made = store();
    await made.save('s1', sampleState(['one']));
    const loaded = await made.load('s1');
    await admin.hSet(hashOf(made, 's1'), 'memory', '{"max_messages": 5, "messages": 7}');
    expect(await made.save('s1', sampleState(['two']))).toEqual({ revision: 1 });
    expect(await made.asideKeys()).toHaveLength(1);
    expect(loaded?.revision).toBe(1);
  });

  it('another store instance saves over a sound record without moving it', async () => {
    const first = store();
    await first.save('s1', sampleState(['one']));
    const second = store({ prefix: first.prefix });
    expect(await second.save('s1', sampleState(['two']))).toEqual({ revision: 2 });
    expect(await second.save('s1', sampleState(['three']), { expectedRevision: 2 })).toEqual({
      revision: 3,
    });
    expect(await first.save('s1', sampleState(['four']), { expectedRevision: 3 })).toEqual({
      revision: 4,
    });
    expect(await first.asideKeys()).toEqual([]);
  });
});

describe('RedisSessionStore: TTL', () => {
  it('sets the Redis expiry to the TTL rounded up plus a margin, and none without a TTL', async () => {
    const made = store({ defaultTtl: 60.2 });
    await made.save('s1', sampleState());
    const ttl = await admin.ttl(hashOf(made, 's1'));
    expect(ttl).toBeGreaterThan(361 - 3);
    expect(ttl).toBeLessThanOrEqual(361);
    // A store without a TTL (same prefix) removes the expiry when it saves.
    const forever = store({ prefix: made.prefix });
    await forever.save('s1', sampleState());
    expect(await admin.ttl(hashOf(made, 's1'))).toBe(-1);
    // A TTL past ten years: no Redis expiry, and no error from Redis.
    const huge = store({ defaultTtl: 1e12 });
    await huge.save('s1', sampleState());
    expect(await admin.ttl(hashOf(huge, 's1'))).toBe(-1);
    expect((await huge.load('s1'))?.revision).toBe(1);
  });

  it('the store’s clock decides expiry; the Redis key outlives it (garbage collection only)', async () => {
    let now = 1_764_500_000;
    const made = store({ defaultTtl: 1, now: () => now });
    await made.save('s1', sampleState());
    now += 1.5;
    expect(await made.load('s1')).toBeNull();
    expect(await admin.exists(hashOf(made, 's1'))).toBe(1);
    now -= 1; // a lagging clock still calls it live, and Redis still has it
    expect((await made.load('s1'))?.revision).toBe(1);
  });
});

describe('RedisSessionStore: atomicity across connections and processes', () => {
  it.each([
    { expected: 0, saver: 'the store that wrote it (the script replies conflict)' },
    { expected: 2, saver: 'the store that wrote it (the script replies conflict)' },
    { expected: 0, saver: 'another store (it reads the record first)' },
    { expected: 7, saver: 'another store (it reads the record first)' },
  ] as const)(
    'a stale save by $saver, expecting $expected: the one SessionConflictError, nothing written',
    async ({ expected, saver }) => {
      const prefix = freshPrefix();
      const writer = store({ prefix });
      await writer.save('s1', sampleState(['one']), { namespace: 'n' });
      const other = saver.startsWith('another') ? store({ prefix }) : writer;
      const error = await rejection(
        other.save('s1', sampleState(['two']), { namespace: 'n', expectedRevision: expected }),
      );
      const oracle = new SessionConflictError('RedisSessionStore.save', 'n:s1', expected, 1);
      expect(error).toBeInstanceOf(SessionConflictError);
      expect((error as Error).message).toBe(oracle.message);
      expect(error).toMatchObject({
        sessionId: 'n:s1',
        expectedRevision: expected,
        actualRevision: 1,
      });
      expect((await writer.load('s1', { namespace: 'n' }))?.revision).toBe(1);
    },
  );

  it('concurrent conditional saves on separate connections: exactly one wins', async () => {
    const prefix = freshPrefix();
    const stores = Array.from({ length: 5 }, () => store({ prefix }));
    await stores[0]?.save('race', sampleState(['base']));
    const settled = await Promise.allSettled(
      stores.map((made, i) => made.save('race', sampleState([`w${i}`]), { expectedRevision: 1 })),
    );
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of settled) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(SessionConflictError);
    }
    expect((await stores[1]?.load('race'))?.revision).toBe(2);
  });

  it('writers on separate connections and in another process: every message arrives once', async () => {
    const prefix = freshPrefix();
    const count = 15;
    const worker = spawn(
      'node_modules/.bin/tsx',
      ['test/support/redisAppendWorker.ts', server.url, prefix, 'shared', 'proc', String(count)],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: worker.stdout });
    const output: string[] = [];
    const ready = new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        output.push(line);
        if (line === 'ready') resolve();
      });
      worker.once('exit', (code) => reject(new Error(`worker exited ${code}: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    await ready;
    const writers = ['a', 'b', 'c'].map((name) => ({ name, store: store({ prefix }) }));
    worker.stdin.write('go\n');
    const conflicts = await Promise.all(
      writers.map(async ({ name, store: made }) => {
        let met = 0;
        for (let i = 0; i < count; i++)
          met += await appendWithRetry(made, 'shared', `${name}:${i}`);
        return met;
      }),
    );
    expect(await exited).toBe(0);
    const workerConflicts = (JSON.parse(output.at(-1) as string) as { conflicts: number })
      .conflicts;
    const loaded = await writers[0]?.store.load('shared');
    const texts = loaded?.state.messages.map((message) => message.content) ?? [];
    const expected = ['a', 'b', 'c', 'proc'].flatMap((name) =>
      Array.from({ length: count }, (_, i) => `${name}:${i}`),
    );
    expect([...texts].sort()).toEqual([...expected].sort());
    expect(loaded?.revision).toBe(expected.length);
    // Each writer's own messages are in its order.
    for (const name of ['a', 'b', 'c', 'proc']) {
      const own = texts.filter((text) => String(text).startsWith(`${name}:`));
      expect(own).toEqual(Array.from({ length: count }, (_, i) => `${name}:${i}`));
    }
    // The writers did race (the test proves something).
    expect(conflicts.reduce((a, b) => a + b, 0) + workerConflicts).toBeGreaterThan(0);
  }, 30_000);
});

describe('RedisSessionStore: SCAN, never KEYS', () => {
  it('lists hundreds of sessions through several SCAN steps, each once, sorted', async () => {
    const own = await startRedisServer({ own: true });
    try {
      const made = new RedisSessionStore({ url: own.url });
      const ids = Array.from({ length: 250 }, (_, i) => `s${String(i).padStart(3, '0')}`);
      await Promise.all(ids.map((id) => made.save(id, sampleState([id]))));
      const stats = createClient({ url: own.url });
      await stats.connect();
      await stats.configResetStat();
      const listed = await made.list();
      expect(listed.map((entry) => entry.sessionId)).toEqual(ids);
      expect(await made.search('s123')).toEqual([
        { sessionId: 's123', id: 's123', score: 1, matchedMessages: ['s123'] },
      ]);
      const info = await stats.info('commandstats');
      expect(info).not.toContain('cmdstat_keys');
      const scans = Number(/cmdstat_scan:calls=(\d+)/.exec(info)?.[1]);
      expect(scans).toBeGreaterThanOrEqual(2 * 3); // list and search, 250 keys at COUNT 100
      stats.destroy();
      await made.close();
    } finally {
      await own.stop();
    }
  });
});

describe('RedisSessionStore: connections', () => {
  const named = async (): Promise<number> =>
    (await admin.clientList()).filter((entry) => entry.name === 'conversation-memory').length;

  it('url: connects on first use, and close() quits the client it made', async () => {
    const before = await named();
    const made = new RedisSessionStore({ url: server.url, prefix: freshPrefix() });
    expect(await named()).toBe(before);
    await made.save('s1', sampleState());
    expect(await named()).toBe(before + 1);
    await made.close();
    await made.close(); // twice is fine
    expect(await settledCount(named, before)).toBe(before);
    expect(await rejection(made.load('s1'))).toMatchObject({
      message: expect.stringContaining('the store is closed'),
    });
    // A store closed before any use never connected.
    await new RedisSessionStore({ url: server.url }).close();
    expect(await named()).toBe(before);
  });

  it('client: uses the caller’s client, and close() leaves it open', async () => {
    const given = await client();
    const made = new RedisSessionStore({ client: given, prefix: freshPrefix() });
    await made.save('s1', sampleState());
    await made.close();
    expect(given.isOpen).toBe(true);
    expect(await given.ping()).toBe('PONG');
    expect(await rejection(made.exists('s1'))).toBeInstanceOf(MemoryArgumentError);
    // The session is still there for another store on the same client.
    const again = new RedisSessionStore({ client: given, prefix: made.prefix });
    expect((await again.load('s1'))?.revision).toBe(1);
  });

  it('checks its options', () => {
    const cases: [unknown, string][] = [
      [undefined, 'options must be an object'],
      [{}, 'exactly one of options.url'],
      [{ url: 'redis://x', client: {} }, 'exactly one of options.url'],
      [{ url: '' }, 'options.url must be a redis:// URL'],
      [{ client: { get: () => 1 } }, 'options.client must be a node-redis client'],
      [{ url: 'redis://x', prefix: 7 }, 'options.prefix must be a string'],
      [{ url: 'redis://x', prefix: '\uD800' }, 'well-formed Unicode'],
      [{ url: 'redis://x', commandTimeoutMs: 0 }, 'options.commandTimeoutMs must be a positive'],
      [{ url: 'redis://x', defaultTtl: 0 }, 'defaultTtl must be a positive number'],
      [
        { url: 'redis://x', cluster: { rootNodes: [{ url: 'redis://y' }] } },
        'exactly one of options.url',
      ],
      [{ cluster: {} }, 'options.cluster must be an object such as'],
      [{ cluster: { rootNodes: [] } }, 'whose rootNodes is empty'],
      [{ cluster: { rootNodes: [{ host: 'y' }] } }, 'options.cluster.rootNodes[0] must be'],
      [
        { cluster: { rootNodes: [{ url: 'redis://y' }], defaults: 5 } },
        'options.cluster.defaults must be',
      ],
      [{ url: 'redis://x', minReplicas: -1 }, 'options.minReplicas must be an integer ≥ 0'],
      [{ url: 'redis://x', minReplicas: 1.5 }, 'options.minReplicas must be an integer ≥ 0'],
      [{ url: 'redis://x', prefix: 'app{}:' }, 'options.prefix must not have "{}"'],
      [{ url: 'redis://x', now: 5 }, 'options.now must be a function'],
    ];
    for (const [options, text] of cases) {
      expect(() => new RedisSessionStore(options as never)).toThrow(MemoryArgumentError);
      expect(() => new RedisSessionStore(options as never)).toThrow(text);
    }
  });

  it('minReplicas with no replica to confirm: saves and deletes are applied, and say they may be lost', async () => {
    // WAIT blocks for half the command timeout; the other half is the margin a loaded machine
    // needs before the reply is late (200 ms left 100 ms, which a CI run overran).
    const made = store({ minReplicas: 1, commandTimeoutMs: 2_000 });
    const error = (await rejection(made.save('s1', sampleState()))) as StoreUnavailableError;
    expect(error).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: true });
    expect(error.message).toContain(
      'RedisSessionStore.save: the write was applied, but 0 of the 1 replicas asked for (options.minReplicas) confirmed it within 1000 ms',
    );
    expect((await made.load('s1'))?.revision).toBe(1);
    expect(await rejection(made.delete('s1'))).toMatchObject({ mayHaveWritten: true });
    expect(await made.exists('s1')).toBe(false);
    // A conflict wrote nothing, and says so.
    await store({ prefix: made.prefix }).save('s2', sampleState());
    expect(await rejection(made.save('s2', sampleState(), { expectedRevision: 0 }))).toMatchObject({
      code: 'CM_SESSION_CONFLICT',
    });
  });

  it('a clock that returns no number is refused before anything is written', async () => {
    const made = store({ now: () => Number.NaN });
    expect(await rejection(made.save('s1', sampleState()))).toMatchObject({
      message: expect.stringContaining('options.now() must return Unix seconds'),
    });
    expect(await admin.exists(hashOf(made, 's1'))).toBe(0);
  });

  it('nothing listening: rejects at once, and the next call connects once a server is there', async () => {
    const gone = await startRedisServer({ own: true });
    const port = Number(new URL(gone.url).port);
    await gone.stop();
    const made = new RedisSessionStore({ url: gone.url });
    const started = Date.now();
    const error = await rejection(made.load('s1'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: false });
    expect(String((error as Error).message)).toMatch(
      /Redis is unreachable, id "s1" \(.*ECONNREFUSED/,
    );
    const back = await startRedisServer({ own: true, port });
    try {
      expect(await made.load('s1')).toBeNull();
      await made.close();
    } finally {
      await back.stop();
    }
  });

  it('a server killed mid-use: calls reject at once with StoreUnavailableError, never hang', async () => {
    const own = await startRedisServer({ own: true });
    const made = new RedisSessionStore({ url: own.url });
    await made.save('s1', sampleState());
    own.process?.kill('SIGKILL');
    await new Promise((resolve) => own.process?.once('exit', resolve));
    for (const [call, writes] of [
      [() => made.load('s1'), false],
      [() => made.save('s1', sampleState()), true],
      [() => made.list(), false],
    ] as const) {
      const started = Date.now();
      const error = (await rejection(call())) as StoreUnavailableError;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.code).toBe('CM_STORE_UNAVAILABLE');
      // node-redis's own error is the cause, and named in the message.
      const cause = error.cause as Error;
      expect(cause.constructor.name).toMatch(/SocketClosedUnexpectedlyError|ClientOfflineError/);
      expect(error.message).toMatch(/Socket closed unexpectedly|The client is offline/);
      // Only a write sent on a connection that then dropped may have been applied.
      expect(error.mayHaveWritten).toBe(
        writes && cause.constructor.name === 'SocketClosedUnexpectedlyError',
      );
    }
    const started = Date.now();
    await made.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await own.stop();
  });

  it('a server that stops answering: StoreUnavailableError after commandTimeoutMs, then recovery', async () => {
    const own = await startRedisServer({ own: true });
    try {
      // 1 s: long enough that the first save never times out on a loaded CI machine.
      const made = new RedisSessionStore({ url: own.url, commandTimeoutMs: 1_000 });
      await made.save('s1', sampleState());
      own.process?.kill('SIGSTOP');
      const started = Date.now();
      const error = (await rejection(made.load('s1'))) as StoreUnavailableError;
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.message).toContain('RedisSessionStore.load: Redis did not answer in time');
      expect(error.mayHaveWritten).toBe(false);
      const cause = error.cause as Error;
      expect([cause.name, cause.constructor.name]).toContain('TimeoutError');
      // A save whose reply never came may have been applied.
      const saving = (await rejection(made.save('s1', sampleState()))) as StoreUnavailableError;
      expect(saving).toMatchObject({ code: 'CM_STORE_UNAVAILABLE', mayHaveWritten: true });
      expect(saving.message).toContain('read it back before deciding again');
      own.process?.kill('SIGCONT');
      expect((await made.load('s1'))?.revision).toBeGreaterThanOrEqual(1);
      await made.close();
    } finally {
      await own.stop();
    }
  });

  it('a given client that queues offline: the timeout still bounds every call', async () => {
    const own = await startRedisServer({ own: true });
    const given = createClient({ url: own.url });
    given.on('error', () => undefined);
    await given.connect();
    const made = new RedisSessionStore({ client: given, commandTimeoutMs: 1_000 });
    await made.save('s1', sampleState());
    await own.stop();
    const started = Date.now();
    const error = (await rejection(made.load('s1'))) as StoreUnavailableError;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error.cause as Error).constructor.name)).toMatch(
      /TimeoutError|DOMException|SocketClosedUnexpectedlyError/,
    );
    expect(await rejection(made.exists('s1'))).toMatchObject({
      code: 'CM_STORE_UNAVAILABLE',
      message: expect.stringContaining('Redis did not answer in time'),
    });
    await made.close();
    given.destroy();
  });
});

describe('RedisSessionStore: retries against the real agent loop', () => {
  it('an append with retry after a conflict keeps both messages', async () => {
    const prefix = freshPrefix();
    const [one, two] = [store({ prefix }), store({ prefix })];
    await one.save('s1', addMessages(sampleState([]), [userMessage('base')]).state);
    const stale = await one.load('s1');
    if (stale === null) throw new Error('s1 should be there');
    await appendWithRetry(two, 's1', 'from two');
    const error = await rejection(
      one.save('s1', addMessages(stale.state, [userMessage('lost?')]).state, {
        expectedRevision: stale.revision,
      }),
    );
    expect(error).toBeInstanceOf(SessionConflictError);
    await appendWithRetry(one, 's1', 'from one');
    expect((await one.load('s1'))?.state.messages.map((m) => m.content)).toEqual([
      'base',
      'from two',
      'from one',
    ]);
  });
});
