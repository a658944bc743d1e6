/**
 * Every public function, constructor and method that takes an options object refuses a key it
 * does not know (issue #17 §3): the error is one of our classes, and its message names the call,
 * the key and, where one is near, the option meant. One row per entry of the inventory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import {
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
  isConversationMemoryError,
  MemoryArgumentError,
  MemoryConfigError,
  modelView,
  toDict,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import {
  readServerSentEvents,
  toServerSentEvents,
  toServerSentEventsResponse,
} from 'conversation-memory/sse';
import { createConversationsSlice } from 'conversation-memory/redux';
import { createMemoryStore, memoryStateCreator } from 'conversation-memory/zustand';
import {
  createEntityMemory,
  createKnowledge,
  createKnowledgeGraph,
  createKnowledgeMemory,
  InMemoryKnowledgeStore,
} from 'conversation-memory/knowledge';
import { createOpenAIEmbedder, openaiProvider } from 'conversation-memory/openai';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { aiSdkProvider } from 'conversation-memory/ai-sdk';
import { otelObserver } from 'conversation-memory/otel';
import {
  JsonFileSessionStore,
  RedisEventStore,
  RedisSessionStore,
  SqliteEventStore,
  SqliteSessionStore,
  SqliteKnowledgeStore,
  RedisKnowledgeStore,
} from 'conversation-memory/node';

type ErrorClass = abstract new (...args: never[]) => Error;

/** One entry: the call, its error class and the text its message must hold. */
interface Row {
  readonly call: string;
  readonly run: () => unknown;
  readonly error: ErrorClass;
  readonly message: string;
}

const folder = mkdtempSync(path.join(tmpdir(), 'cm-strict-'));
const fakeRedis = { sendCommand: async () => null };
const provider = new LocalProvider();
const agent = createAgent({ provider });
const events = (async function* () {})();
const body = new ReadableStream<Uint8Array>();
const sdkModel = new MockLanguageModelV3();
const log = createEventLog();
const eventStore = new InMemoryEventStore();

afterAll(async () => {
  await body.cancel().catch(() => undefined);
});

const rows: readonly Row[] = [
  // Root entry
  {
    call: 'createMemory',
    run: () => createMemory({ maxMesages: 3 } as never),
    error: MemoryConfigError,
    message: 'createMemory: maxMesages is not an option (did you mean maxMessages?)',
  },
  {
    call: 'new ConversationMemory',
    run: () => new ConversationMemory({ max_tokens: 3 } as never),
    error: MemoryConfigError,
    message: 'new ConversationMemory: max_tokens is not an option (did you mean maxTokens?)',
  },
  {
    call: 'ConversationMemory.fromDict',
    run: () =>
      ConversationMemory.fromDict(toDict(createMemory()), { tokeniser: 'heuristic' } as never),
    error: MemoryArgumentError,
    message:
      'ConversationMemory.fromDict: options.tokeniser is not an option (did you mean tokenizer?)',
  },
  {
    call: 'fromDict',
    run: () => fromDict(toDict(createMemory()), { tokeniser: 'heuristic' } as never),
    error: MemoryArgumentError,
    message: 'fromDict: options.tokeniser is not an option (did you mean tokenizer?)',
  },
  {
    call: 'fromDictWithEffects',
    run: () => fromDictWithEffects(toDict(createMemory()), { tokeniser: 'heuristic' } as never),
    error: MemoryArgumentError,
    message: 'fromDictWithEffects: options.tokeniser is not an option (did you mean tokenizer?)',
  },
  {
    call: 'createEventLog',
    run: () => createEventLog({}, { snapshotevery: 8 } as never),
    error: MemoryArgumentError,
    message: 'createEventLog: options.snapshotevery is not an option (did you mean snapshotEvery?)',
  },
  {
    call: 'createEntityMemory',
    run: () => createEntityMemory({ max_entities: 10 } as never),
    error: MemoryArgumentError,
    message:
      'createEntityMemory: options.max_entities is not an option (did you mean maxEntities?)',
  },
  {
    call: 'createKnowledgeGraph',
    run: () => createKnowledgeGraph({ maxContextTriple: 10 } as never),
    error: MemoryArgumentError,
    message:
      'createKnowledgeGraph: options.maxContextTriple is not an option (did you mean maxContextTriples?)',
  },
  {
    call: 'createKnowledgeGraph prompt',
    run: () => createKnowledgeGraph({ prompt: { sytem: 'x' } } as never),
    error: MemoryArgumentError,
    message: 'createKnowledgeGraph: options.prompt.sytem is not an option (did you mean system?)',
  },
  {
    call: 'createKnowledgeMemory',
    run: () => createKnowledgeMemory({ max_entries: 10 } as never),
    error: MemoryArgumentError,
    message:
      'createKnowledgeMemory: options.max_entries is not an option (did you mean maxEntries?)',
  },
  {
    call: 'modelView',
    run: () => modelView(createMemory(), { budjet: 100 } as never),
    error: MemoryArgumentError,
    message: 'modelView: options.budjet is not an option (did you mean budget?)',
  },
  {
    call: 'createAgent',
    run: () => createAgent({ provider, memroy: new ConversationMemory() } as never),
    error: AgentConfigError,
    message: 'createAgent: options.memroy is not an option (did you mean memory?)',
  },
  {
    call: 'agent.run',
    run: () => agent.run('hi', { runID: 'r1' } as never),
    error: InvalidMessageError,
    message: 'agent.run: options.runID is not an option (did you mean runId?)',
  },
  {
    call: 'agent.stream',
    run: () => agent.stream('hi', { signl: undefined } as never),
    error: InvalidMessageError,
    message: 'agent.stream: options.signl is not an option (did you mean signal?)',
  },
  {
    call: 'agent.resume',
    run: () => agent.resume({ re_run: true } as never),
    error: InvalidMessageError,
    message: 'agent.resume: options.re_run is not an option (did you mean rerun?)',
  },
  {
    call: 'new InMemorySessionStore',
    run: () => new InMemorySessionStore({ ttl: 60 } as never),
    error: MemoryArgumentError,
    message: 'options.ttl is not an option (did you mean defaultTtl?)',
  },
  {
    call: 'new InMemoryEventStore',
    run: () => new InMemoryEventStore({ snapshot_every: 8 } as never),
    error: MemoryArgumentError,
    message:
      'InMemoryEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
  },
  {
    call: 'exportEventLog',
    run: () => exportEventLog(eventStore, 's1', { toversion: 3 } as never),
    error: MemoryArgumentError,
    message: 'exportEventLog: options.toversion is not an option (did you mean toVersion?)',
  },
  {
    call: 'importEventLog',
    run: () => importEventLog(eventStore, 's1', log, { batchsize: 3 } as never),
    error: MemoryArgumentError,
    message: 'importEventLog: options.batchsize is not an option (did you mean batchSize?)',
  },
  // conversation-memory/testing
  {
    call: 'new LocalProvider',
    run: () => new LocalProvider({ defaultmodel: 'x' } as never),
    error: MemoryArgumentError,
    message:
      'new LocalProvider: options.defaultmodel is not an option (did you mean defaultModel?)',
  },
  // conversation-memory/sse
  {
    call: 'readServerSentEvents',
    run: () => readServerSentEvents(body, { maxEventLen: 10 } as never),
    error: MemoryArgumentError,
    message: 'readServerSentEvents: options.maxEventLen is not an option',
  },
  {
    call: 'toServerSentEventsResponse',
    run: () => toServerSentEventsResponse(events, { header: { a: 'b' } } as never),
    error: MemoryArgumentError,
    message: 'toServerSentEventsResponse: init.header is not an option (did you mean headers?)',
  },
  {
    call: 'toServerSentEvents',
    run: () => toServerSentEvents(events, { exposeError: true } as never),
    error: MemoryArgumentError,
    message:
      'toServerSentEvents: options.exposeError is not an option (did you mean exposeErrors?)',
  },
  {
    call: 'toServerSentEventsResponse (options)',
    run: () => toServerSentEventsResponse(events, {}, { expose_errors: true } as never),
    error: MemoryArgumentError,
    message:
      'toServerSentEventsResponse: options.expose_errors is not an option (did you mean exposeErrors?)',
  },
  // conversation-memory/redux
  {
    call: 'createConversationsSlice',
    run: () => createConversationsSlice({ defaultconfig: { maxMessages: 3 } } as never),
    error: MemoryArgumentError,
    message:
      'createConversationsSlice: options.defaultconfig is not an option (did you mean defaultConfig?)',
  },
  // conversation-memory/zustand
  {
    call: 'createMemoryStore',
    run: () => createMemoryStore({ maxMesages: 3 } as never),
    error: MemoryConfigError,
    message: 'createMemoryStore: maxMesages is not an option (did you mean maxMessages?)',
  },
  {
    call: 'memoryStateCreator',
    run: () => memoryStateCreator({ maxMesages: 3 } as never),
    error: MemoryConfigError,
    message: 'memoryStateCreator: maxMesages is not an option (did you mean maxMessages?)',
  },
  // Provider adapters
  {
    call: 'openaiProvider',
    run: () => openaiProvider({ client: new OpenAI({ apiKey: 'x' }), model: 'gpt' } as never),
    error: AgentConfigError,
    message: 'openaiProvider: options.model is not an option (did you mean defaultModel?)',
  },
  {
    call: 'createOpenAIEmbedder',
    run: () => createOpenAIEmbedder({ client: new OpenAI({ apiKey: 'x' }), dimension: 8 } as never),
    error: MemoryArgumentError,
    message: 'createOpenAIEmbedder: options.dimension is not an option (did you mean dimensions?)',
  },
  {
    call: 'OpenAIEmbedder.prepare',
    run: () =>
      // Port 1 refuses: without the check, the call could not reach the network either.
      createOpenAIEmbedder({
        client: new OpenAI({ apiKey: 'x', baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0 }),
      }).prepare(['a'], {
        signl: AbortSignal.abort(),
      } as never),
    error: MemoryArgumentError,
    message: 'createOpenAIEmbedder.prepare: options.signl is not an option (did you mean signal?)',
  },
  {
    call: 'anthropicProvider',
    run: () => anthropicProvider({ client: new Anthropic({ apiKey: 'x' }), maxTokens: 9 } as never),
    error: AgentConfigError,
    message:
      'anthropicProvider: options.maxTokens is not an option (did you mean defaultMaxTokens?)',
  },
  {
    call: 'aiSdkProvider',
    run: () => aiSdkProvider({ model: sdkModel, max_retries: 1 } as never),
    error: MemoryArgumentError,
    message: 'aiSdkProvider: options.max_retries is not an option (did you mean maxRetries?)',
  },
  {
    call: 'otelObserver',
    run: () => otelObserver({ recordcontent: true } as never),
    error: AgentConfigError,
    message: 'otelObserver: options.recordcontent is not an option (did you mean recordContent?)',
  },
  // conversation-memory/node
  {
    call: 'new JsonFileSessionStore',
    run: () => new JsonFileSessionStore({ directory: folder, ttl: 60 } as never),
    error: MemoryArgumentError,
    message: 'JsonFileSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
  },
  {
    call: 'new SqliteSessionStore',
    run: () => new SqliteSessionStore({ path: ':memory:', ttl: 60 } as never),
    error: MemoryArgumentError,
    message: 'SqliteSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
  },
  {
    call: 'new SqliteEventStore',
    run: () => new SqliteEventStore({ path: ':memory:', snapshot_every: 8 } as never),
    error: MemoryArgumentError,
    message:
      'SqliteEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
  },
  {
    call: 'new RedisSessionStore',
    run: () => new RedisSessionStore({ client: fakeRedis, ttl: 60 } as never),
    error: MemoryArgumentError,
    message: 'RedisSessionStore: options.ttl is not an option (did you mean defaultTtl?)',
  },
  {
    call: 'new SqliteKnowledgeStore',
    run: () => new SqliteKnowledgeStore({ path: ':memory:', file: 'k.db' } as never),
    error: MemoryArgumentError,
    message: 'SqliteKnowledgeStore: options.file is not an option (did you mean path?)',
  },
  {
    call: 'new RedisKnowledgeStore',
    run: () => new RedisKnowledgeStore({ client: fakeRedis, prefx: 'k:' } as never),
    error: MemoryArgumentError,
    message: 'RedisKnowledgeStore: options.prefx is not an option (did you mean prefix?)',
  },
  {
    call: 'new InMemoryKnowledgeStore',
    run: () => new InMemoryKnowledgeStore({ ttl: 60 } as never),
    error: MemoryArgumentError,
    message: 'InMemoryKnowledgeStore: options.ttl is not an option',
  },
  {
    call: 'new RedisEventStore',
    run: () => new RedisEventStore({ client: fakeRedis, snapshot_every: 8 } as never),
    error: MemoryArgumentError,
    message:
      'RedisEventStore: options.snapshot_every is not an option (did you mean snapshotEvery?)',
  },
];

/** Every method of each session store, with a misspelled option. */
const sessionStores = {
  InMemorySessionStore: () => new InMemorySessionStore(),
  JsonFileSessionStore: () => new JsonFileSessionStore({ directory: folder }),
  SqliteSessionStore: () => new SqliteSessionStore({ path: ':memory:' }),
  RedisSessionStore: () => new RedisSessionStore({ client: fakeRedis }),
};
const sessionMethodRows: Row[] = Object.entries(sessionStores).flatMap(([name, make]) => [
  {
    call: `${name}.save`,
    run: () => make().save('s1', createMemory(), { expectedrevision: 0 } as never),
    error: MemoryArgumentError,
    message: `${name}.save: options.expectedrevision is not an option (did you mean expectedRevision?)`,
  },
  {
    call: `${name}.branch`,
    run: () => make().branch('s1', 's2', { revision: 0 } as never),
    error: MemoryArgumentError,
    message: `${name}.branch: options.revision is not an option (did you mean expectedRevision?)`,
  },
  ...(['load', 'exists', 'delete'] as const).map((method) => ({
    call: `${name}.${method}`,
    run: () => make()[method]('s1', { namespce: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.${method}: options.namespce is not an option (did you mean namespace?)`,
  })),
  {
    call: `${name}.search`,
    run: () => make().search('hello', { limt: 3 } as never),
    error: MemoryArgumentError,
    message: `${name}.search: options.limt is not an option (did you mean limit?)`,
  },
]);

/** Every method of each knowledge store, with a misspelled option. */
const knowledgeStores = {
  InMemoryKnowledgeStore: () => new InMemoryKnowledgeStore(),
  SqliteKnowledgeStore: () => new SqliteKnowledgeStore({ path: ':memory:' }),
  RedisKnowledgeStore: () => new RedisKnowledgeStore({ client: fakeRedis }),
};
const knowledgeMethodRows: Row[] = Object.entries(knowledgeStores).flatMap(([name, make]) => [
  {
    call: `${name}.save`,
    run: () => make().save('u1', createKnowledge(), { expectedrevision: 0 } as never),
    error: MemoryArgumentError,
    message: `${name}.save: options.expectedrevision is not an option (did you mean expectedRevision?)`,
  },
  ...(['load', 'delete'] as const).map((method) => ({
    call: `${name}.${method}`,
    run: () => make()[method]('u1', { namespce: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.${method}: options.namespce is not an option (did you mean namespace?)`,
  })),
  {
    call: `${name}.list`,
    run: () => make().list({ ns: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.list: options.ns is not an option (did you mean namespace?)`,
  },
]);

/** The first item of an async iterable (an async generator runs its checks on the first next). */
const firstOf = <T>(items: AsyncIterable<T>): Promise<IteratorResult<T>> =>
  items[Symbol.asyncIterator]().next();

/** Every method of each event store, with a misspelled option. */
const eventStores = {
  InMemoryEventStore: () => new InMemoryEventStore(),
  SqliteEventStore: () => new SqliteEventStore({ path: ':memory:' }),
  RedisEventStore: () => new RedisEventStore({ client: fakeRedis }),
};
const eventMethodRows: Row[] = Object.entries(eventStores).flatMap(([name, make]) => [
  {
    call: `${name}.append`,
    run: () => make().append('s1', [], { expectedVersion: 0, namespce: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.append: options.namespce is not an option (did you mean namespace?)`,
  },
  {
    call: `${name}.read`,
    run: () => firstOf(make().read('s1', { fromversion: 2 } as never)),
    error: MemoryArgumentError,
    message: `${name}.read: options.fromversion is not an option (did you mean fromVersion?)`,
  },
  {
    call: `${name}.load`,
    run: () => make().load('s1', { atversion: 2 } as never),
    error: MemoryArgumentError,
    message: `${name}.load: options.atversion is not an option (did you mean atVersion?)`,
  },
  {
    call: `${name}.streams`,
    run: () => make().streams({ namespce: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.streams: options.namespce is not an option (did you mean namespace?)`,
  },
  {
    call: `${name}.delete`,
    run: () => make().delete('s1', { namespce: 'u1' } as never),
    error: MemoryArgumentError,
    message: `${name}.delete: options.namespce is not an option (did you mean namespace?)`,
  },
]);
const subscribeRow: Row = {
  call: 'RedisEventStore.subscribe',
  run: () =>
    new RedisEventStore({ client: fakeRedis }).subscribe('s1', 0, () => undefined, {
      onerror: () => undefined,
    } as never),
  error: MemoryArgumentError,
  message: 'RedisEventStore.subscribe: options.onerror is not an option (did you mean onError?)',
};

/** The error `run` throws or rejects with, or `undefined` when it does neither. */
const failureOf = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('every options object is strict', () => {
  it.each([
    ...rows,
    ...sessionMethodRows,
    ...knowledgeMethodRows,
    ...eventMethodRows,
    subscribeRow,
  ])('$call refuses an unknown key', async ({ run, error, message }) => {
    const failure = await failureOf(run);
    expect(failure).toBeInstanceOf(error);
    expect(isConversationMemoryError(failure)).toBe(true);
    expect((failure as Error).message).toContain(message);
  });
});
