/**
 * The inventory of every public call that takes an options object (a function's, a constructor's
 * or a method's; a memory config counts): for each, the name its errors use, the class of its
 * errors about options, options that work (each key one the call reads), a misspelled key with
 * the error it gets (for the calls that refuse unknown keys), and a fresh world to run it in,
 * with what the call could have written there.
 *
 * Two tests are driven by it, so a call added here is covered by both: every misspelled option is
 * refused (`test/surface/strictOptions.inventory.test.ts`), and options that cannot be read (a
 * throwing getter, a throwing Proxy trap, a revoked Proxy) are refused with the caller's error as
 * `cause`, nothing written (`test/surface/hostileOptions.inventory.test.ts`).
 *
 * The stores are the real ones: SQLite files through better-sqlite3, JSON files in a temporary
 * folder, a Redis server and a PostgreSQL server the test file starts.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { trace } from '@opentelemetry/api';
import OpenAI from 'openai';
import { MockLanguageModelV3 } from 'ai/test';
import { either as E } from 'fp-ts';
import { afterAll, beforeAll } from 'vitest';
import {
  addMessage,
  AgentConfigError,
  ConversationMemory,
  createAgent,
  createEventLog,
  createMemory,
  exportEventLog,
  fromDict,
  fromDictWithEffects,
  importEventLog,
  InMemoryEventStore,
  InMemorySessionStore,
  InvalidMessageError,
  MemoryArgumentError,
  MemoryConfigError,
  memoryActions,
  modelView,
  reconfigure,
  toAnthropic,
  toDict,
  userMessage,
  type AgentStreamEvent,
  type EventStore,
  type MemoryState,
  type SessionStore,
} from 'conversation-memory';
import {
  atVersionOf,
  checkAppend,
  checkEventOptions,
  checkSessionOptions,
  expectedRevisionOf,
  readOptionFields,
  readRangeOf,
  sessionKeyOf,
} from 'conversation-memory/store-kit';
import { LocalProvider } from 'conversation-memory/testing';
import {
  readServerSentEvents,
  toServerSentEvents,
  toServerSentEventsResponse,
} from 'conversation-memory/sse';
import { createConversationsSlice } from 'conversation-memory/redux';
import { createMemoryStore, memoryStateCreator } from 'conversation-memory/zustand';
import {
  checkKnowledgeOptions,
  createEntityMemory,
  createKnowledge,
  createKnowledgeGraph,
  createKnowledgeMemory,
  InMemoryKnowledgeStore,
  knowledgeBlocks,
  listNamespace,
  scoreFacts,
  type KnowledgeStore,
} from 'conversation-memory/knowledge';
import { createOpenAIEmbedder, openaiProvider } from 'conversation-memory/openai';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { otelObserver } from 'conversation-memory/otel';
import {
  JsonFileSessionStore,
  RedisEventStore,
  RedisKnowledgeStore,
  PostgresEventStore,
  PostgresKnowledgeStore,
  PostgresSessionStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteKnowledgeStore,
  SqliteSessionStore,
} from 'conversation-memory/node';
import { startPostgresServer, type PostgresTestServer } from './postgresServer';
import { startRedisServer, type RedisTestServer } from './redisServer';
import { chatAndMcpCalls } from './optionCallsChatAndMcp';

type ErrorClass = abstract new (...args: never[]) => Error;

/** One call's world: the call with given options, and what it could have written. */
export interface Subject {
  /** Runs the call with `options`; its value (or what it resolves to) must be plain data. */
  readonly run: (options: unknown) => unknown;
  /** Everything the call could write or change, as plain data (none: it writes nothing). */
  readonly contents?: () => Promise<unknown>;
  /** Frees the world (closes stores). */
  readonly close?: () => Promise<void>;
  /** The options for this world: the row's with its placeholders (a path, a URL) filled in. */
  readonly fill?: (options: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

/** Fills the placeholders of the options that have them (a key the options do not give stays out). */
export const placed =
  (values: Readonly<Record<string, unknown>>) =>
  (options: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    const out = { ...options };
    for (const [key, value] of Object.entries(values)) if (key in out) out[key] = value;
    return out;
  };

/** A world's options (the row's, placeholders filled), ready to be made hostile. */
export const optionsFor = (
  subject: Subject,
  options: Readonly<Record<string, unknown>>,
): Record<string, unknown> => (subject.fill === undefined ? { ...options } : subject.fill(options));

/**
 * Where the worlds live: fresh folders, Redis prefixes on a server the test file started, and
 * schemas on a PostgreSQL server it started.
 */
export interface Places {
  readonly folder: () => string;
  readonly redisUrl: () => string;
  readonly prefix: () => string;
  readonly postgresUrl: () => string;
  /** A fresh PostgreSQL schema name. */
  readonly schema: () => string;
}

/** One public call that takes an options object. */
export interface OptionCall {
  /** The call as a user writes it (a row's name). */
  readonly call: string;
  /** The name its errors use: `[conversation-memory] <api>: …`. */
  readonly api: string;
  /** The class of its errors about its options. */
  readonly error: ErrorClass;
  /** The name of the options in its errors (default `options`). */
  readonly where?: string;
  /** Options that work: each key one the call reads. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Options with a misspelled key, and the text the error must hold. */
  readonly typo?: { readonly options: Readonly<Record<string, unknown>>; readonly message: string };
  /** A fresh world for one run. */
  readonly open: (places: Places) => Subject | Promise<Subject>;
}

/**
 * The places of one test file: call at its top level (registers the Redis server's start and
 * stop, and the removal of the folders).
 */
export const usePlaces = (): Places => {
  let server: RedisTestServer | undefined;
  let postgres: PostgresTestServer | undefined;
  const root = mkdtempSync(path.join(tmpdir(), 'cm-options-'));
  const run = `cm-options:${process.pid}-${Date.now().toString(36)}`;
  let count = 0;
  beforeAll(async () => {
    [server, postgres] = await Promise.all([startRedisServer(), startPostgresServer()]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    folder: () => mkdtempSync(path.join(root, 'w-')),
    redisUrl: () => {
      if (server === undefined) throw new Error('the Redis server has not started');
      return server.url;
    },
    prefix: () => `${run}:${++count}:`,
    postgresUrl: () => {
      if (postgres === undefined) throw new Error('the PostgreSQL server has not started');
      return postgres.url;
    },
    schema: () => `cm_options_${++count}`,
  };
};

const CONFIG = { tokenizer: 'heuristic' } as const;
const said = (text: string) => memoryActions.messageAdded(userMessage(text));
const stateWith = (text: string): MemoryState =>
  addMessage(createMemory(CONFIG), userMessage(text)).state;

/** Drains an async iterable. */
const drain = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** The names of a folder's entries, recursively, sorted. */
const listing = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();

/** A constructor's world: the store it makes is closed; a folder shows what it created. */
const constructed = (
  make: (options: unknown) => { close(): Promise<void> },
  use: (store: never) => Promise<unknown>,
  folder?: string,
): Subject => ({
  run: async (options) => {
    const store = make(options);
    try {
      return await use(store as never);
    } finally {
      await store.close();
    }
  },
  ...(folder === undefined ? {} : { contents: async () => listing(folder) }),
});

// --- The stores, each seeded with one record in namespace 'n' --------------------------------

type Maker<S> = (places: Places) => S;

const sessionStores: Record<string, Maker<SessionStore & { close(): Promise<void> }>> = {
  InMemorySessionStore: () => new InMemorySessionStore(),
  JsonFileSessionStore: (places) => new JsonFileSessionStore({ directory: places.folder() }),
  SqliteSessionStore: (places) =>
    new SqliteSessionStore({ path: path.join(places.folder(), 's.db') }),
  RedisSessionStore: (places) =>
    new RedisSessionStore({ url: places.redisUrl(), prefix: places.prefix() }),
  PostgresSessionStore: (places) =>
    new PostgresSessionStore({ connectionString: places.postgresUrl(), schema: places.schema() }),
};

const knowledgeStores: Record<string, Maker<KnowledgeStore>> = {
  InMemoryKnowledgeStore: () => new InMemoryKnowledgeStore(),
  SqliteKnowledgeStore: (places) =>
    new SqliteKnowledgeStore({ path: path.join(places.folder(), 'k.db') }),
  RedisKnowledgeStore: (places) =>
    new RedisKnowledgeStore({ url: places.redisUrl(), prefix: places.prefix() }),
  PostgresKnowledgeStore: (places) =>
    new PostgresKnowledgeStore({ connectionString: places.postgresUrl(), schema: places.schema() }),
};

const eventStores: Record<string, Maker<EventStore & { close(): Promise<void> }>> = {
  InMemoryEventStore: () => new InMemoryEventStore({ snapshotEvery: 2 }),
  SqliteEventStore: (places) =>
    new SqliteEventStore({ path: path.join(places.folder(), 'e.db'), snapshotEvery: 2 }),
  RedisEventStore: (places) =>
    new RedisEventStore({ url: places.redisUrl(), prefix: places.prefix(), snapshotEvery: 2 }),
  PostgresEventStore: (places) =>
    new PostgresEventStore({
      connectionString: places.postgresUrl(),
      schema: places.schema(),
      snapshotEvery: 2,
    }),
};

const sessionWorld = async (
  make: Maker<SessionStore & { close(): Promise<void> }>,
  places: Places,
) => {
  const store = make(places);
  const state = stateWith('hello there');
  await store.save('s', state, { namespace: 'n' });
  return {
    store,
    state,
    contents: async () => ({
      s: await store.load('s', { namespace: 'n' }),
      t: await store.exists('t', { namespace: 'n' }),
      plainT: await store.exists('t'),
      plainS: await store.exists('s'),
    }),
    close: () => store.close(),
  };
};

const knowledgeWorld = async (make: Maker<KnowledgeStore>, places: Places) => {
  const store = make(places);
  await store.save('k', createKnowledge(), { namespace: 'n' });
  return {
    store,
    contents: async () => ({
      all: await store.list(),
      k: await store.load('k', { namespace: 'n' }),
    }),
    close: () => store.close(),
  };
};

const eventWorld = async (make: Maker<EventStore & { close(): Promise<void> }>, places: Places) => {
  const store = make(places);
  await store.append('s', [said('a'), said('b'), said('c')], {
    namespace: 'n',
    expectedVersion: 0,
    config: CONFIG,
  });
  return {
    store,
    contents: async () => ({
      all: await store.streams(),
      inN: await store.streams({ namespace: 'n' }),
      head: await store.load('s', { namespace: 'n' }),
    }),
    close: () => store.close(),
  };
};

/** A seeded store's world: what the methods run on, what they could have changed, and its end. */
interface World {
  readonly contents: () => Promise<unknown>;
  readonly close: () => Promise<void>;
}

/**
 * One method of a store family: its name, options that work, a misspelled key (the last one is
 * the misspelling) and the option the error suggests, and the call on a seeded world.
 */
type MethodRow<W> = readonly [
  verb: string,
  options: Record<string, unknown>,
  typo: Record<string, unknown>,
  hint: string,
  run: (w: W, options: never) => Promise<unknown>,
];

/** A method whose one option is `namespace` (misspelled `namespce`). */
const byNamespace = <W>(verb: string, run: MethodRow<W>[4]): MethodRow<W> => [
  verb,
  { namespace: 'n' },
  { namespce: 'n' },
  'namespace',
  run,
];

/** A conditional save: `expectedRevision` (misspelled `expectedrevision`) and `namespace`. */
const bySaveRevision = <W>(verb: string, run: MethodRow<W>[4]): MethodRow<W> => [
  verb,
  { namespace: 'n', expectedRevision: 0 },
  { expectedrevision: 0 },
  'expectedRevision',
  run,
];

/** The rows of a store family: each method of each of its stores, on a fresh seeded world. */
const storeMethodCalls = <S, W extends World>(
  stores: Record<string, Maker<S>>,
  world: (make: Maker<S>, places: Places) => Promise<W>,
  methods: readonly MethodRow<W>[],
): OptionCall[] =>
  Object.entries(stores).flatMap(([name, make]) =>
    methods.map(([verb, options, typo, hint, run]) => ({
      call: `${name}.${verb}`,
      api: `${name}.${verb}`,
      error: MemoryArgumentError,
      options,
      typo: {
        options: typo,
        message: `${name}.${verb}: options.${Object.keys(typo).at(-1)} is not an option (did you mean ${hint}?)`,
      },
      open: async (places: Places) => {
        const w = await world(make, places);
        return { run: (o: unknown) => run(w, o as never), contents: w.contents, close: w.close };
      },
    })),
  );

const sessionMethodCalls = storeMethodCalls(sessionStores, sessionWorld, [
  bySaveRevision('save', (w, o) => w.store.save('t', w.state, o)),
  [
    'branch',
    { namespace: 'n', expectedRevision: 0 },
    { revision: 0 },
    'expectedRevision',
    (w, o) => w.store.branch('s', 't', o),
  ],
  byNamespace('load', (w, o) => w.store.load('s', o)),
  byNamespace('exists', (w, o) => w.store.exists('s', o)),
  byNamespace('delete', (w, o) => w.store.delete('s', o)),
  [
    'search',
    { namespace: 'n', limit: 3 },
    { limt: 3 },
    'limit',
    (w, o) => w.store.search('hello', o),
  ],
]);

const knowledgeMethodCalls = storeMethodCalls(knowledgeStores, knowledgeWorld, [
  bySaveRevision('save', (w, o) => w.store.save('j', createKnowledge(), o)),
  byNamespace('load', (w, o) => w.store.load('k', o)),
  byNamespace('delete', (w, o) => w.store.delete('k', o)),
  ['list', { namespace: 'n' }, { ns: 'n' }, 'namespace', (w, o) => w.store.list(o)],
]);

const eventMethodCalls = storeMethodCalls(eventStores, eventWorld, [
  [
    'append',
    { namespace: 'n', expectedVersion: 0, config: CONFIG },
    { expectedVersion: 0, namespce: 'n' },
    'namespace',
    (w, o) => w.store.append('t', [said('x')], o),
  ],
  [
    'read',
    { namespace: 'n', fromVersion: 2, toVersion: 3 },
    { fromversion: 2 },
    'fromVersion',
    (w, o) => drain(w.store.read('s', o)),
  ],
  [
    'load',
    { namespace: 'n', atVersion: 2 },
    { atversion: 2 },
    'atVersion',
    (w, o) => w.store.load('s', o),
  ],
  byNamespace('streams', (w, o) => w.store.streams(o)),
  byNamespace('delete', (w, o) => w.store.delete('s', o)),
  ['prune', { namespace: 'n', before: 2 }, { befor: 2 }, 'before', (w, o) => w.store.prune('s', o)],
]);

/** The event stores with `subscribe` (not a method of `EventStore`). */
const subscribable = (names: readonly string[]) =>
  Object.fromEntries(Object.entries(eventStores).filter(([name]) => names.includes(name)));

const subscribeCalls = storeMethodCalls(
  subscribable(['RedisEventStore', 'PostgresEventStore']),
  eventWorld,
  [
    [
      'subscribe',
      { namespace: 'n', onError: () => undefined },
      { onerror: () => undefined },
      'onError',
      async (w, o) => {
        const store = w.store as RedisEventStore | PostgresEventStore;
        const seen: number[] = [];
        const stop = store.subscribe('s', 0, ({ version }) => void seen.push(version), o);
        await stop();
        return 'subscribed';
      },
    ],
  ],
);

// --- The constructors of the stores ----------------------------------------------------------

const storeConstructors = (): OptionCall[] => [
  {
    call: 'new InMemorySessionStore',
    api: 'InMemorySessionStore',
    error: MemoryArgumentError,
    options: { defaultTtl: 60, now: () => 1_000 },
    typo: {
      options: { ttl: 60 },
      message: 'options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: () =>
      constructed(
        (o) => new InMemorySessionStore(o as never),
        (store: InMemorySessionStore) => store.exists('s'),
      ),
  },
  {
    call: 'new InMemoryEventStore',
    api: 'InMemoryEventStore',
    error: MemoryArgumentError,
    options: { snapshotEvery: 8, defaultTtl: 60, now: () => 1_000 },
    typo: {
      options: { snapshot_every: 8 },
      message:
        'InMemoryEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
    },
    open: () =>
      constructed(
        (o) => new InMemoryEventStore(o as never),
        (store: InMemoryEventStore) => store.streams(),
      ),
  },
  {
    call: 'new InMemoryKnowledgeStore',
    api: 'InMemoryKnowledgeStore',
    error: MemoryArgumentError,
    options: { defaultTtl: 60, now: () => 1_000 },
    typo: {
      options: { ttl: 60 },
      message: 'InMemoryKnowledgeStore: options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: () =>
      constructed(
        (o) => new InMemoryKnowledgeStore(o as never),
        (store: InMemoryKnowledgeStore) => store.list(),
      ),
  },
  {
    call: 'new JsonFileSessionStore',
    api: 'JsonFileSessionStore',
    error: MemoryArgumentError,
    options: {
      directory: '(per world)',
      defaultTtl: 60,
      now: () => 1_000,
      lockWaitMs: 1_000,
      staleLockMs: 5_000,
      maxFileBytes: 1_000_000,
    },
    typo: {
      options: { directory: '(per world)', ttl: 60 },
      message: 'JsonFileSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: (places) => {
      const folder = places.folder();
      const directory = path.join(folder, 'sessions');
      return {
        ...constructed(
          (o) => new JsonFileSessionStore(o as never),
          async (store: JsonFileSessionStore) => {
            await store.save('s', stateWith('hello'));
            return store.exists('s');
          },
          folder,
        ),
        fill: placed({ directory }),
      };
    },
  },
  {
    call: 'new SqliteSessionStore',
    api: 'SqliteSessionStore',
    error: MemoryArgumentError,
    options: {
      path: '(per world)',
      fts: true,
      lockTimeoutMs: 1_000,
      defaultTtl: 60,
      now: () => 1_000,
    },
    typo: {
      options: { path: '(per world)', ttl: 60 },
      message: 'SqliteSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: (places) =>
      sqliteConstructed(places, SqliteSessionStore, 's.db', (store) => store.exists('s')),
  },
  {
    call: 'new SqliteEventStore',
    api: 'SqliteEventStore',
    error: MemoryArgumentError,
    options: {
      path: '(per world)',
      snapshotEvery: 8,
      lockTimeoutMs: 1_000,
      defaultTtl: 60,
      now: () => 1_000,
    },
    typo: {
      options: { path: '(per world)', snapshot_every: 8 },
      message:
        'SqliteEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
    },
    open: (places) =>
      sqliteConstructed(places, SqliteEventStore, 'e.db', (store) => store.streams()),
  },
  {
    call: 'new SqliteKnowledgeStore',
    api: 'SqliteKnowledgeStore',
    error: MemoryArgumentError,
    options: { path: '(per world)', lockTimeoutMs: 1_000, defaultTtl: 60, now: () => 1_000 },
    typo: {
      options: { path: '(per world)', file: 'k.db' },
      message: 'SqliteKnowledgeStore: options.file is not an option (did you mean path?)',
    },
    open: (places) =>
      sqliteConstructed(places, SqliteKnowledgeStore, 'k.db', (store) => store.list()),
  },
  {
    call: 'new RedisSessionStore',
    api: 'RedisSessionStore',
    error: MemoryArgumentError,
    options: {
      url: '(per world)',
      prefix: '(per world)',
      defaultTtl: 60,
      now: () => Date.now(),
      commandTimeoutMs: 5_000,
      minReplicas: 0,
    },
    typo: {
      options: { url: '(per world)', ttl: 60 },
      message: 'RedisSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: (places) => redisConstructed(places, RedisSessionStore, (store) => store.exists('s')),
  },
  {
    call: 'new RedisEventStore',
    api: 'RedisEventStore',
    error: MemoryArgumentError,
    options: {
      url: '(per world)',
      prefix: '(per world)',
      snapshotEvery: 8,
      defaultTtl: 60,
      now: () => Date.now() / 1000,
      commandTimeoutMs: 5_000,
      minReplicas: 0,
    },
    typo: {
      options: { url: '(per world)', snapshot_every: 8 },
      message:
        'RedisEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
    },
    open: (places) => redisConstructed(places, RedisEventStore, (store) => store.streams()),
  },
  {
    call: 'new RedisKnowledgeStore',
    api: 'RedisKnowledgeStore',
    error: MemoryArgumentError,
    options: {
      url: '(per world)',
      prefix: '(per world)',
      defaultTtl: 60,
      now: () => Date.now() / 1000,
      commandTimeoutMs: 5_000,
      minReplicas: 0,
    },
    typo: {
      options: { url: '(per world)', prefx: 'k:' },
      message: 'RedisKnowledgeStore: options.prefx is not an option (did you mean prefix?)',
    },
    open: (places) => redisConstructed(places, RedisKnowledgeStore, (store) => store.list()),
  },
  {
    call: 'new PostgresEventStore',
    api: 'PostgresEventStore',
    error: MemoryArgumentError,
    options: {
      connectionString: '(per world)',
      schema: '(per world)',
      snapshotEvery: 8,
      defaultTtl: 60,
      now: () => Date.now() / 1000,
    },
    typo: {
      options: { connectionString: '(per world)', snapshot_every: 8 },
      message:
        'PostgresEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
    },
    open: (places) => postgresConstructed(places, PostgresEventStore, (store) => store.streams()),
  },
  {
    call: 'new PostgresKnowledgeStore',
    api: 'PostgresKnowledgeStore',
    error: MemoryArgumentError,
    options: {
      connectionString: '(per world)',
      schema: '(per world)',
      defaultTtl: 60,
      now: () => Date.now() / 1000,
    },
    typo: {
      options: { connectionString: '(per world)', schem: 'x' },
      message: 'PostgresKnowledgeStore: options.schem is not an option (did you mean schema?)',
    },
    open: (places) => postgresConstructed(places, PostgresKnowledgeStore, (store) => store.list()),
  },
  {
    call: 'new PostgresSessionStore',
    api: 'PostgresSessionStore',
    error: MemoryArgumentError,
    options: {
      connectionString: '(per world)',
      schema: '(per world)',
      defaultTtl: 60,
      now: () => Date.now() / 1000,
    },
    typo: {
      options: { connectionString: '(per world)', ttl: 60 },
      message: 'PostgresSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
    },
    open: (places) =>
      postgresConstructed(places, PostgresSessionStore, (store) => store.exists('s')),
  },
];

/** A SQLite store's constructor, on `file` in a fresh folder (its listing shows what was made). */
const sqliteConstructed = <S extends { close(): Promise<void> }>(
  places: Places,
  Store: new (options: never) => S,
  file: string,
  use: (store: S) => Promise<unknown>,
): Subject => {
  const folder = places.folder();
  return {
    ...constructed((o) => new Store(o as never), use as (store: never) => Promise<unknown>, folder),
    fill: placed({ path: path.join(folder, file) }),
  };
};

/** A server store's constructor, its options' placeholders filled with `values`. */
const serverConstructed =
  (values: (places: Places) => Readonly<Record<string, unknown>>) =>
  <S extends { close(): Promise<void> }>(
    places: Places,
    Store: new (options: never) => S,
    use: (store: S) => Promise<unknown>,
  ): Subject => ({
    ...constructed((o) => new Store(o as never), use as (store: never) => Promise<unknown>),
    fill: placed(values(places)),
  });

/** A Redis store's constructor, on a fresh prefix of the test file's server. */
const redisConstructed = serverConstructed((places) => ({
  url: places.redisUrl(),
  prefix: places.prefix(),
}));

/** A PostgreSQL store's constructor, on a fresh schema of the test file's server. */
const postgresConstructed = serverConstructed((places) => ({
  connectionString: places.postgresUrl(),
  schema: places.schema(),
}));

// --- Everything else -------------------------------------------------------------------------

const provider = new LocalProvider();
const openai = new OpenAI({ apiKey: 'x', baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0 });
const anthropic = new Anthropic({ apiKey: 'x', baseURL: 'http://127.0.0.1:1', maxRetries: 0 });

const delta = (text: string): AgentStreamEvent => ({ type: 'text-delta', text });
async function* someEvents(): AsyncGenerator<AgentStreamEvent> {
  yield delta('Hi');
  yield delta(' there');
}

/** A body of server-sent events: two text deltas. */
const eventBody = (): ReadableStream<Uint8Array> => {
  const text =
    'event: text-delta\ndata: {"type":"text-delta","text":"Hi"}\n\n' +
    'event: text-delta\ndata: {"type":"text-delta","text":" there"}\n\n';
  return new Response(text).body as ReadableStream<Uint8Array>;
};

/** An agent with memory: a run that is refused leaves the memory as it was. */
const agentWorld = () => {
  const memory = new ConversationMemory(CONFIG);
  const agent = createAgent({ provider, memory });
  return { agent, contents: async () => toDict(memory.state) };
};

const signal = () => new AbortController().signal;

const otherCalls = (): OptionCall[] => [
  // Root entry: memory configs
  {
    call: 'createMemory',
    api: 'createMemory',
    error: MemoryConfigError,
    options: { maxMessages: 5, maxTokens: 1_000, tokenizer: 'heuristic', pinSystem: true },
    typo: {
      options: { maxMesages: 3 },
      message: 'createMemory: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => ({ run: (o) => createMemory(o as never).config }),
  },
  {
    call: 'new ConversationMemory',
    api: 'new ConversationMemory',
    error: MemoryConfigError,
    options: { maxMessages: 5, tokenizer: 'heuristic' },
    typo: {
      options: { max_tokens: 3 },
      message: 'new ConversationMemory: max_tokens is not an option (did you mean maxTokens?)',
    },
    open: () => ({ run: (o) => new ConversationMemory(o as never).state.config }),
  },
  {
    call: 'reconfigure',
    api: 'reconfigure',
    error: MemoryConfigError,
    options: { maxMessages: 5, tokenizer: 'heuristic' },
    typo: {
      options: { maxMesages: 3 },
      message: 'reconfigure: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => ({ run: (o) => reconfigure(stateWith('hi'), o as never).state.config }),
  },
  {
    call: 'ConversationMemory.reconfigure',
    api: 'ConversationMemory.reconfigure',
    error: MemoryConfigError,
    options: { maxMessages: 5, tokenizer: 'heuristic' },
    typo: {
      options: { maxMesages: 3 },
      message:
        'ConversationMemory.reconfigure: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => {
      const memory = new ConversationMemory(CONFIG);
      memory.add(userMessage('hello'));
      return {
        run: (o) => memory.reconfigure(o as never).map((effect) => effect.type),
        contents: async () => toDict(memory.state),
      };
    },
  },
  {
    call: 'memoryActions.reconfigured',
    api: 'memoryActions.reconfigured',
    error: MemoryConfigError,
    options: { maxMessages: 5, tokenizer: 'heuristic' },
    typo: {
      options: { maxMesages: 3 },
      message:
        'memoryActions.reconfigured: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => ({ run: (o) => memoryActions.reconfigured(o as never) }),
  },
  // Root entry: options
  {
    call: 'ConversationMemory.fromDict',
    api: 'ConversationMemory.fromDict',
    error: MemoryArgumentError,
    options: { tokenizer: 'heuristic' },
    typo: {
      options: { tokeniser: 'heuristic' },
      message:
        'ConversationMemory.fromDict: options.tokeniser is not an option (did you mean tokenizer?)',
    },
    open: () => ({
      run: (o) => toDict(ConversationMemory.fromDict(toDict(stateWith('hi')), o as never).state),
    }),
  },
  {
    call: 'fromDict',
    api: 'fromDict',
    error: MemoryArgumentError,
    options: { tokenizer: 'heuristic' },
    typo: {
      options: { tokeniser: 'heuristic' },
      message: 'fromDict: options.tokeniser is not an option (did you mean tokenizer?)',
    },
    open: () => ({ run: (o) => E.isRight(fromDict(toDict(stateWith('hi')), o as never)) }),
  },
  {
    call: 'fromDictWithEffects',
    api: 'fromDictWithEffects',
    error: MemoryArgumentError,
    options: { tokenizer: 'heuristic' },
    typo: {
      options: { tokeniser: 'heuristic' },
      message: 'fromDictWithEffects: options.tokeniser is not an option (did you mean tokenizer?)',
    },
    open: () => ({
      run: (o) => E.isRight(fromDictWithEffects(toDict(stateWith('hi')), o as never)),
    }),
  },
  {
    call: 'createEventLog',
    api: 'createEventLog',
    error: MemoryArgumentError,
    options: { snapshotEvery: 8 },
    typo: {
      options: { snapshotevery: 8 },
      message:
        'createEventLog: options.snapshotevery is not an option (did you mean snapshotEvery?)',
    },
    open: () => ({ run: (o) => createEventLog(CONFIG, o as never).snapshotEvery }),
  },
  {
    call: 'exportEventLog',
    api: 'exportEventLog',
    error: MemoryArgumentError,
    options: { namespace: 'n', snapshotEvery: 8, toVersion: 2 },
    typo: {
      options: { toversion: 3 },
      message: 'exportEventLog: options.toversion is not an option (did you mean toVersion?)',
    },
    open: async (places) => {
      const w = await eventWorld(eventStores['InMemoryEventStore'] as never, places);
      return {
        run: async (o) => (await exportEventLog(w.store, 's', o as never))?.length,
        contents: w.contents,
      };
    },
  },
  {
    call: 'importEventLog',
    api: 'importEventLog',
    error: MemoryArgumentError,
    options: { namespace: 'n', batchSize: 1 },
    typo: {
      options: { batchsize: 3 },
      message: 'importEventLog: options.batchsize is not an option (did you mean batchSize?)',
    },
    open: async (places) => {
      const w = await eventWorld(eventStores['InMemoryEventStore'] as never, places);
      const log = await exportEventLog(w.store, 's', { namespace: 'n' });
      if (log === null) throw new Error('the seeded stream is missing');
      return {
        run: (o) => importEventLog(w.store, 't', log, o as never),
        contents: w.contents,
      };
    },
  },
  {
    call: 'modelView',
    api: 'modelView',
    error: MemoryArgumentError,
    options: {
      target: 'openai',
      budget: 1_000,
      transcript: [{ message: userMessage('hello'), position: 0 }],
      knowledge: '[Known Entities]\n- Alice',
      maskToolResults: { keepLast: 1 },
      cache: { ttl: '1h' },
    },
    typo: {
      options: { budjet: 100 },
      message: 'modelView: options.budjet is not an option (did you mean budget?)',
    },
    open: () => ({ run: (o) => modelView(stateWith('hello'), o as never).messages }),
  },
  {
    call: 'toAnthropic',
    api: 'toAnthropic',
    error: MemoryArgumentError,
    options: { cache: { ttl: '5m', breakpoints: [0] } },
    typo: {
      options: { cahce: { ttl: '5m', breakpoints: [0] } },
      message: 'toAnthropic: options.cahce is not an option (did you mean cache?)',
    },
    open: () => ({ run: (o) => toAnthropic([userMessage('hello')], o as never).messages }),
  },
  {
    call: 'createAgent',
    api: 'createAgent',
    error: AgentConfigError,
    options: {
      provider,
      memory: new ConversationMemory(CONFIG),
      tools: [],
      config: { systemPrompt: 'Be brief.', cache: { ttl: '1h' }, cacheKey: 'thread-7' },
      observers: [],
    },
    typo: {
      options: { provider, memroy: new ConversationMemory() },
      message: 'createAgent: options.memroy is not an option (did you mean memory?)',
    },
    open: () => ({ run: (o) => typeof createAgent(o as never).run }),
  },
  {
    call: 'agent.run',
    api: 'agent.run',
    error: InvalidMessageError,
    options: { runId: 'r1', signal: signal() },
    typo: {
      options: { runID: 'r1' },
      message: 'agent.run: options.runID is not an option (did you mean runId?)',
    },
    open: () => {
      const w = agentWorld();
      return {
        run: async (o) => (await w.agent.run('hi', o as never)).message.content,
        contents: w.contents,
      };
    },
  },
  {
    call: 'agent.stream',
    api: 'agent.stream',
    error: InvalidMessageError,
    options: { runId: 'r1', signal: signal() },
    typo: {
      options: { signl: undefined },
      message: 'agent.stream: options.signl is not an option (did you mean signal?)',
    },
    open: () => {
      const w = agentWorld();
      return {
        run: async (o) => (await drain(w.agent.stream('hi', o as never))).map((e) => e.type),
        contents: w.contents,
      };
    },
  },
  {
    call: 'agent.resume',
    api: 'agent.resume',
    error: InvalidMessageError,
    options: { rerun: false, runId: 'r1', signal: signal() },
    typo: {
      options: { re_run: true },
      message: 'agent.resume: options.re_run is not an option (did you mean rerun?)',
    },
    open: async () => {
      const w = agentWorld();
      await w.agent.run('hello');
      return {
        run: async (o) => (await w.agent.resume(o as never)).message.content,
        contents: w.contents,
      };
    },
  },
  // Knowledge
  {
    call: 'createEntityMemory',
    api: 'createEntityMemory',
    error: MemoryArgumentError,
    options: {
      maxEntities: 10,
      relevanceWindow: 5,
      model: 'm',
      maxTokens: 100,
      budget: 200,
      prompt: { system: 'Extract.' },
      store: new InMemoryKnowledgeStore(),
      id: 'user-1',
      namespace: 'n',
    },
    typo: {
      options: { max_entities: 10 },
      message:
        'createEntityMemory: options.max_entities is not an option (did you mean maxEntities?)',
    },
    open: () => ({ run: (o) => withoutStore(createEntityMemory(o as never).options) }),
  },
  {
    call: 'createKnowledgeGraph',
    api: 'createKnowledgeGraph',
    error: MemoryArgumentError,
    options: {
      maxTriples: 10,
      maxContextTriples: 5,
      relevanceWindow: 5,
      model: 'm',
      maxTokens: 100,
      budget: 200,
      singleValuedRelations: ['lives_in'],
      prompt: { system: 'Extract.' },
      store: new InMemoryKnowledgeStore(),
      id: 'user-1',
      namespace: 'n',
    },
    typo: {
      options: { maxContextTriple: 10 },
      message:
        'createKnowledgeGraph: options.maxContextTriple is not an option (did you mean maxContextTriples?)',
    },
    open: () => ({ run: (o) => withoutStore(createKnowledgeGraph(o as never).options) }),
  },
  {
    call: 'createKnowledgeMemory',
    api: 'createKnowledgeMemory',
    error: MemoryArgumentError,
    options: {
      maxEntries: 10,
      maxContextChars: 500,
      budget: 200,
      store: new InMemoryKnowledgeStore(),
      id: 'user-1',
      namespace: 'n',
    },
    typo: {
      options: { max_entries: 10 },
      message:
        'createKnowledgeMemory: options.max_entries is not an option (did you mean maxEntries?)',
    },
    open: () => ({ run: (o) => withoutStore(createKnowledgeMemory(o as never).options) }),
  },
  {
    call: 'knowledgeBlocks',
    api: 'knowledgeBlocks',
    error: MemoryArgumentError,
    options: {
      query: 'where does Alice work?',
      now: 1_000,
      countTokens: (text: string) => text.length,
      graph: {},
      entities: { budget: 100 },
      knowledge: {},
      sanitize: true,
      score: (_query: string, texts: readonly string[]) => texts.map(() => 1),
    },
    typo: {
      options: { now: 1_000, qurey: 'x' },
      message: 'knowledgeBlocks: options.qurey is not an option (did you mean query?)',
    },
    open: () => ({ run: (o) => knowledgeBlocks(createKnowledge(), o as never) }),
  },
  {
    call: 'scoreFacts',
    api: 'scoreFacts',
    error: MemoryArgumentError,
    options: { score: (_query: string, texts: readonly string[]) => texts.map(() => 1) },
    typo: {
      options: { scorer: () => [] },
      message: 'scoreFacts: options.scorer is not an option (did you mean score?)',
    },
    open: () => ({
      run: (o) => scoreFacts('Alice', [{ text: 'Alice works at Acme' }], o as never),
    }),
  },
  // conversation-memory/testing
  {
    call: 'new LocalProvider',
    api: 'new LocalProvider',
    error: MemoryArgumentError,
    options: { name: 'local', defaultModel: 'local-2' },
    typo: {
      options: { defaultmodel: 'x' },
      message:
        'new LocalProvider: options.defaultmodel is not an option (did you mean defaultModel?)',
    },
    open: () => ({
      run: (o) => {
        const made = new LocalProvider(o as never);
        return [made.name, made.defaultModel];
      },
    }),
  },
  // conversation-memory/sse
  {
    call: 'readServerSentEvents',
    api: 'readServerSentEvents',
    error: MemoryArgumentError,
    options: { maxEventLength: 10_000 },
    typo: {
      options: { maxEventLen: 10 },
      message: 'readServerSentEvents: options.maxEventLen is not an option',
    },
    open: () => {
      const body = eventBody();
      return {
        run: (o) => drain(readServerSentEvents(body, o as never)),
        // A refused call leaves the body as it was: not locked, not read.
        contents: async () => body.locked,
        close: () => (body.locked ? Promise.resolve() : body.cancel()),
      };
    },
  },
  {
    call: 'toServerSentEvents',
    api: 'toServerSentEvents',
    error: MemoryArgumentError,
    options: { exposeErrors: false },
    typo: {
      options: { exposeError: true },
      message:
        'toServerSentEvents: options.exposeError is not an option (did you mean exposeErrors?)',
    },
    open: () => ({
      run: (o) => new Response(toServerSentEvents(someEvents(), o as never)).text(),
    }),
  },
  {
    call: 'toServerSentEventsResponse',
    api: 'toServerSentEventsResponse',
    error: MemoryArgumentError,
    where: 'init',
    options: { status: 201, statusText: 'Created', headers: { 'x-run': 'r1' } },
    typo: {
      options: { header: { a: 'b' } },
      message: 'toServerSentEventsResponse: init.header is not an option (did you mean headers?)',
    },
    open: () => ({
      run: async (o) => {
        const response = toServerSentEventsResponse(someEvents(), o as never);
        return [response.status, response.headers.get('x-run'), await response.text()];
      },
    }),
  },
  {
    call: 'toServerSentEventsResponse (options)',
    api: 'toServerSentEventsResponse',
    error: MemoryArgumentError,
    options: { exposeErrors: false },
    typo: {
      options: { expose_errors: true },
      message:
        'toServerSentEventsResponse: options.expose_errors is not an option (did you mean exposeErrors?)',
    },
    open: () => ({
      run: (o) => toServerSentEventsResponse(someEvents(), {}, o as never).text(),
    }),
  },
  // conversation-memory/redux and /zustand
  {
    call: 'createConversationsSlice',
    api: 'createConversationsSlice',
    error: MemoryArgumentError,
    options: { name: 'chats', defaultConfig: { maxMessages: 3, tokenizer: 'heuristic' } },
    typo: {
      options: { defaultconfig: { maxMessages: 3 } },
      message:
        'createConversationsSlice: options.defaultconfig is not an option (did you mean defaultConfig?)',
    },
    open: () => ({ run: (o) => createConversationsSlice(o as never).name }),
  },
  {
    call: 'createMemoryStore',
    api: 'createMemoryStore',
    error: MemoryConfigError,
    options: { maxMessages: 3, tokenizer: 'heuristic' },
    typo: {
      options: { maxMesages: 3 },
      message: 'createMemoryStore: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => ({ run: (o) => createMemoryStore(o as never).getState().memory.config }),
  },
  {
    call: 'memoryStateCreator',
    api: 'memoryStateCreator',
    error: MemoryConfigError,
    options: { maxMessages: 3, tokenizer: 'heuristic' },
    typo: {
      options: { maxMesages: 3 },
      message: 'memoryStateCreator: maxMesages is not an option (did you mean maxMessages?)',
    },
    open: () => ({ run: (o) => typeof memoryStateCreator(o as never) }),
  },
  // Provider adapters and the observer
  {
    call: 'openaiProvider',
    api: 'openaiProvider',
    error: AgentConfigError,
    options: { client: openai, defaultModel: 'gpt-4o-mini', name: 'openai-main' },
    typo: {
      options: { client: openai, model: 'gpt' },
      message: 'openaiProvider: options.model is not an option (did you mean defaultModel?)',
    },
    open: () => ({ run: (o) => openaiProvider(o as never).name }),
  },
  {
    call: 'createOpenAIEmbedder',
    api: 'createOpenAIEmbedder',
    error: MemoryArgumentError,
    options: {
      client: openai,
      model: 'text-embedding-3-small',
      dimensions: 8,
      batchSize: 16,
      maxBatchBytes: 100_000,
    },
    typo: {
      options: { client: openai, dimension: 8 },
      message:
        'createOpenAIEmbedder: options.dimension is not an option (did you mean dimensions?)',
    },
    open: () => ({ run: (o) => createOpenAIEmbedder(o as never).has('a') }),
  },
  {
    call: 'OpenAIEmbedder.prepare',
    api: 'createOpenAIEmbedder.prepare',
    error: MemoryArgumentError,
    options: { signal: signal() },
    typo: {
      options: { signl: AbortSignal.abort() },
      message:
        'createOpenAIEmbedder.prepare: options.signl is not an option (did you mean signal?)',
    },
    open: () => {
      const embedder = createOpenAIEmbedder({ client: openai });
      // An empty text is never fetched: the call does no request.
      return { run: async (o) => (await embedder.prepare([''], o as never)) ?? 'prepared' };
    },
  },
  {
    call: 'anthropicProvider',
    api: 'anthropicProvider',
    error: AgentConfigError,
    options: {
      client: anthropic,
      defaultModel: 'claude-sonnet-4-5',
      defaultMaxTokens: 100,
      name: 'anthropic-main',
    },
    typo: {
      options: { client: anthropic, maxTokens: 9 },
      message:
        'anthropicProvider: options.maxTokens is not an option (did you mean defaultMaxTokens?)',
    },
    open: () => ({ run: (o) => anthropicProvider(o as never).name }),
  },
  {
    call: 'aiSdkProvider',
    api: 'aiSdkProvider',
    error: AgentConfigError,
    options: {
      model: new MockLanguageModelV3(),
      defaultModelName: 'mock',
      name: 'sdk',
      maxRetries: 0,
    },
    typo: {
      options: { model: new MockLanguageModelV3(), max_retries: 1 },
      message: 'aiSdkProvider: options.max_retries is not an option (did you mean maxRetries?)',
    },
    open: () => ({ run: (o) => aiSdkProvider(o as never).name }),
  },
  {
    call: 'otelObserver',
    api: 'otelObserver',
    error: AgentConfigError,
    options: { tracer: trace.getTracer('options-test'), recordContent: true },
    typo: {
      options: { recordcontent: true },
      message: 'otelObserver: options.recordcontent is not an option (did you mean recordContent?)',
    },
    open: () => ({ run: (o) => Object.keys(otelObserver(o as never)).sort() }),
  },
  // conversation-memory/store-kit and the knowledge store kit: the checks every store calls
  {
    call: 'checkSessionOptions',
    api: 'MyStore.search',
    error: MemoryArgumentError,
    options: { namespace: 'n', limit: 3 },
    typo: {
      options: { limt: 3 },
      message: 'MyStore.search: options.limt is not an option (did you mean limit?)',
    },
    open: () => ({ run: (o) => checkSessionOptions(o, 'search', 'MyStore.search') ?? null }),
  },
  {
    call: 'checkEventOptions',
    api: 'MyStore.read',
    error: MemoryArgumentError,
    options: { namespace: 'n', fromVersion: 1, toVersion: 2 },
    typo: {
      options: { fromversion: 1 },
      message: 'MyStore.read: options.fromversion is not an option (did you mean fromVersion?)',
    },
    open: () => ({ run: (o) => checkEventOptions(o, 'read', 'MyStore.read') ?? null }),
  },
  {
    call: 'checkKnowledgeOptions',
    api: 'MyStore.save',
    error: MemoryArgumentError,
    options: { namespace: 'n', expectedRevision: 2 },
    typo: {
      options: { expectedrevision: 2 },
      message:
        'MyStore.save: options.expectedrevision is not an option (did you mean expectedRevision?)',
    },
    open: () => ({ run: (o) => checkKnowledgeOptions(o, 'save', 'MyStore.save') ?? null }),
  },
  {
    call: 'checkAppend',
    api: 'MyStore.append',
    error: MemoryArgumentError,
    options: { namespace: 'n', expectedVersion: 0, config: CONFIG },
    typo: {
      options: { expectedVersion: 0, namespce: 'n' },
      message: 'MyStore.append: options.namespce is not an option (did you mean namespace?)',
    },
    open: () => ({
      run: (o) => {
        const { key, expectedVersion } = checkAppend('s', [said('x')], o, 'MyStore.append');
        return { key, expectedVersion };
      },
    }),
  },
  {
    call: 'readOptionFields',
    api: 'MyStore',
    error: MemoryArgumentError,
    options: { path: 'my.db', snapshotEvery: 8 },
    typo: {
      options: { snapshot_every: 8 },
      message: 'MyStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
    },
    open: () => ({ run: (o) => readOptionFields(o, ['path', 'snapshotEvery'], 'MyStore') }),
  },
  {
    call: 'sessionKeyOf',
    api: 'MyStore.load',
    error: MemoryArgumentError,
    options: { namespace: 'n' },
    open: () => ({ run: (o) => sessionKeyOf('s', o, 'MyStore.load') }),
  },
  {
    call: 'expectedRevisionOf',
    api: 'MyStore.save',
    error: MemoryArgumentError,
    options: { expectedRevision: 2 },
    open: () => ({ run: (o) => expectedRevisionOf(o, 'MyStore.save') }),
  },
  {
    call: 'readRangeOf',
    api: 'MyStore.read',
    error: MemoryArgumentError,
    options: { fromVersion: 1, toVersion: 2 },
    open: () => ({ run: (o) => readRangeOf(o, 'MyStore.read') }),
  },
  {
    call: 'atVersionOf',
    api: 'MyStore.load',
    error: MemoryArgumentError,
    options: { atVersion: 2 },
    open: () => ({ run: (o) => atVersionOf(o, 'MyStore.load') }),
  },
  {
    call: 'listNamespace',
    api: 'MyStore.list',
    error: MemoryArgumentError,
    options: { namespace: 'n' },
    open: () => ({ run: (o) => listNamespace(o, 'MyStore.list') }),
  },
];

/** A module's options without its store (an object of methods, not data). */
const withoutStore = ({ store, ...rest }: { store?: unknown }): unknown => ({
  ...rest,
  store: store === undefined ? 'none' : 'given',
});

/** Every public call that takes an options object. */
export const optionCalls = (): readonly OptionCall[] => [
  ...otherCalls(),
  ...storeConstructors(),
  ...sessionMethodCalls,
  ...knowledgeMethodCalls,
  ...eventMethodCalls,
  ...subscribeCalls,
  ...chatAndMcpCalls(),
];
