/**
 * The rows of the options inventory (test/support/optionCalls.ts) for the AI SDK chat UI (issue
 * #31: the UI message stream, its stores, resume, IndexedDB persistence) and the MCP server (issue
 * #33): every call of theirs that takes an options object, run for real (a Redis server for the
 * Redis stream store, a listening socket for `serveMcpHttp`).
 */
import { createClient } from 'redis';
import { MemoryArgumentError, type AgentStreamEvent } from 'conversation-memory';
import {
  createMemoryUIMessageStreamStore,
  resumeUIMessageStream,
  resumeUIMessageStreamResponse,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from 'conversation-memory/ai-sdk';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { createMemoryMcpServer, serveMcpHttp } from 'conversation-memory/mcp';
import { RedisUIMessageStreamStore } from 'conversation-memory/node';
import { createIndexedDbStorage } from 'conversation-memory/zustand';
import { placed, type OptionCall } from './optionCalls';

async function* twoDeltas(): AsyncGenerator<AgentStreamEvent> {
  yield { type: 'text-delta', text: 'Hi' };
  yield { type: 'text-delta', text: ' there' };
}

/** The chunks' types, read to the end. */
const chunkTypes = async (stream: ReadableStream<{ type: string }>): Promise<string[]> => {
  const types: string[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    types.push(next.value.type);
  }
  return types;
};

const streamStore = createMemoryUIMessageStreamStore();
const noop = (): void => undefined;

/** A stream store holding what `toUIMessageStream` wrote: the chat's chunks, as plain data. */
const storeContents = async (store: ReturnType<typeof createMemoryUIMessageStreamStore>) => {
  const chunks = await store.read('c1');
  if (chunks === null) return null;
  const read: unknown[] = [];
  for await (const chunk of chunks) read.push(chunk);
  return read;
};

/** The rows; each world is fresh. */
export const chatAndMcpCalls = (): OptionCall[] => [
  {
    call: 'toUIMessageStream',
    api: 'toUIMessageStream',
    error: MemoryArgumentError,
    options: {
      messageId: 'm1',
      messageMetadata: { chat: 'c1' },
      onError: () => 'Sorry.',
      onFinish: noop,
      store: streamStore,
      chatId: 'c1',
      onStoreError: noop,
    },
    typo: {
      options: { messageID: 'm1' },
      message: 'toUIMessageStream: options.messageID is not an option (did you mean messageId?)',
    },
    open: () => {
      const store = createMemoryUIMessageStreamStore();
      return {
        run: (o) => chunkTypes(toUIMessageStream(twoDeltas(), o as never)),
        fill: placed({ store }),
        contents: () => storeContents(store),
      };
    },
  },
  {
    call: 'toUIMessageStreamResponse',
    api: 'toUIMessageStreamResponse',
    error: MemoryArgumentError,
    options: { messageId: 'm1', status: 201, headers: { 'x-chat': 'c1' } },
    typo: {
      options: { header: { 'x-chat': 'c1' } },
      message: 'toUIMessageStreamResponse: options.header is not an option (did you mean headers?)',
    },
    open: () => ({
      run: async (o) => {
        const response = toUIMessageStreamResponse(twoDeltas(), o as never);
        return { status: response.status, body: await response.text() };
      },
    }),
  },
  ...(['resumeUIMessageStream', 'resumeUIMessageStreamResponse'] as const).map(
    (api): OptionCall => ({
      call: api,
      api,
      error: MemoryArgumentError,
      options: { store: streamStore, chatId: 'c1', signal: new AbortController().signal },
      typo: {
        options: { store: streamStore, chatID: 'c1' },
        message: `${api}: options.chatID is not an option (did you mean chatId?)`,
      },
      open: () => {
        // A chat with an ended stream still lingering: a resume reads all of it.
        const store = createMemoryUIMessageStreamStore();
        return {
          run: async (o) => {
            const id = await store.begin('c1');
            await store.append('c1', id, { type: 'start', messageId: 'm1' });
            await store.end('c1', id);
            if (api === 'resumeUIMessageStreamResponse') {
              const response = await resumeUIMessageStreamResponse(o as never);
              return { status: response.status, body: await response.text() };
            }
            const stream = await resumeUIMessageStream(o as never);
            return stream === null ? null : chunkTypes(stream);
          },
          fill: placed({ store }),
        };
      },
    }),
  ),
  {
    call: 'createMemoryUIMessageStreamStore',
    api: 'createMemoryUIMessageStreamStore',
    error: MemoryArgumentError,
    options: { ttl: 60_000, linger: 1_000, maxChunks: 10, maxBytes: 10_000, now: Date.now },
    typo: {
      options: { tll: 60_000 },
      message: 'createMemoryUIMessageStreamStore: options.tll is not an option (did you mean ttl?)',
    },
    open: () => ({
      run: async (o) => {
        const store = createMemoryUIMessageStreamStore(o as never);
        return store.requestStop('c1');
      },
    }),
  },
  {
    call: 'new RedisUIMessageStreamStore',
    api: 'RedisUIMessageStreamStore',
    error: MemoryArgumentError,
    options: { client: '(per world)', prefix: '(per world)', pollMs: 20, ttl: 60_000 },
    typo: {
      options: { client: '(per world)', pollms: 20 },
      message: 'RedisUIMessageStreamStore: options.pollms is not an option (did you mean pollMs?)',
    },
    open: async (places) => {
      const client = createClient({ url: places.redisUrl() });
      await client.connect();
      const prefix = places.prefix();
      return {
        run: async (o) => {
          const store = new RedisUIMessageStreamStore(o as never);
          return store.requestStop('c1');
        },
        fill: placed({ client, prefix }),
        contents: async () => (await client.keys(`${prefix}*`)).sort(),
        close: async () => {
          await client.close();
        },
      };
    },
  },
  {
    call: 'createIndexedDbStorage',
    api: 'createIndexedDbStorage',
    error: MemoryArgumentError,
    options: { databaseName: 'chat', storeName: 'conversations', batchDelayMs: 10, onError: noop },
    typo: {
      options: { dbName: 'chat' },
      message: 'createIndexedDbStorage: options.dbName is not an option',
    },
    // No IndexedDB in Node: the storage is made (it opens the database on first use only).
    open: () => ({ run: (o) => Object.keys(createIndexedDbStorage(o as never)).sort() }),
  },
  {
    call: 'createMemoryMcpServer',
    api: 'createMemoryMcpServer',
    error: MemoryArgumentError,
    options: {
      store: new InMemoryKnowledgeStore(),
      namespace: 'n',
      id: 'graph',
      now: Date.now,
      tokenizer: 'heuristic',
    },
    typo: {
      options: { store: new InMemoryKnowledgeStore(), namespce: 'n' },
      message: 'createMemoryMcpServer: options.namespce is not an option (did you mean namespace?)',
    },
    open: () => ({ run: (o) => typeof createMemoryMcpServer(o as never).connect }),
  },
  {
    call: 'serveMcpHttp',
    api: 'serveMcpHttp',
    error: MemoryArgumentError,
    options: {
      store: new InMemoryKnowledgeStore(),
      namespace: 'n',
      port: 0,
      host: '127.0.0.1',
      maxBodyBytes: 65_536,
      sessionIdleMs: 60_000,
    },
    typo: {
      options: { store: new InMemoryKnowledgeStore(), port: 0, prot: 0 },
      message: 'serveMcpHttp: options.prot is not an option (did you mean port?)',
    },
    open: () => ({
      run: async (o) => {
        const endpoint = await serveMcpHttp(o as never);
        await endpoint.close();
        return endpoint.url.pathname;
      },
    }),
  },
];
