/**
 * A chat server for the AI SDK's `useChat` (`@ai-sdk/react`), on node:http, with the three routes
 * its persistence and resumable-stream guides ask an application to build:
 *
 * - `POST /api/chat` `{ id, message }`: the new UI message (only it: the server's memory holds
 *   the rest), checked with `fromUIMessages`, then the agent's run as a UI message stream
 *   (`toUIMessageStreamResponse`). The reply's id is made here and is the id of the messages the
 *   memory records. Every chunk is kept in the stream store, so the run goes on when the page
 *   goes away, and another request can read it.
 * - `GET /api/chat/:id/stream`: the rest of an active reply, from its start
 *   (`resumeUIMessageStreamResponse`), 204 when none is active: what `useChat({ resume: true })`
 *   asks on load.
 * - `POST /api/chat/:id/stop`: stops the chat's run wherever it runs (through the store); the
 *   part streamed so far stays, as one assistant message marked `metadata.interrupted: true`.
 *
 * and `GET /api/chat/:id` (the conversation as UI messages, for the page's first render). Each chat
 * is an event-sourced conversation (`InMemoryEventStore`; `SqliteEventStore`, `RedisEventStore`
 * or `PostgresEventStore` in production): the user's message is recorded when the run starts, each
 * step when it is complete, so a reload in mid-reply finds them. The agent runs on
 * `LocalProvider`, offline, with one tool; `paceMs` slows its text down so that a reply takes a
 * while (a test reloads and stops in the middle of one).
 *
 * Run: `npx tsx examples/ai-sdk-chat-server.ts --once` (answers one request of its own, prints
 * what it read, and exits). The page it serves at `/` is given by the caller (the Chromium test
 * builds one on `useChat`: test/support/aiSdkChatPage.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  type AgentTool,
  createAgent,
  InMemoryEventStore,
  PROVIDER_SAFE,
  type Provider,
} from 'conversation-memory';
import {
  createMemoryUIMessageStreamStore,
  fromUIMessages,
  resumeUIMessageStreamResponse,
  toUIMessages,
  toUIMessageStreamResponse,
  type UIMessageStreamStore,
} from 'conversation-memory/ai-sdk';
import { LocalProvider } from 'conversation-memory/testing';

/** A request body longer than this is refused (413). */
const MAX_BODY_BYTES = 256 * 1024;
/** What a chat id may be: it names a stream in the stores. */
const CHAT_ID = /^[A-Za-z0-9_-]{1,100}$/;

const TOOLS: readonly AgentTool[] = [
  {
    name: 'get_time',
    description: 'The time of day in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    execute: ({ city }) => `noon in ${String(city ?? 'Paris')}`,
  },
];

/**
 * The provider, its streamed text slowed down: each text part waits `paceMs` (0: as it is).
 *
 * @param paceMs - the wait before each text part
 */
const pacedProvider = (paceMs: number): Provider => {
  const local = new LocalProvider();
  if (paceMs <= 0) return local;
  return {
    name: 'local-paced',
    defaultModel: 'local-1',
    complete: (request) => local.complete(request),
    stream: (request) => ({
      async *[Symbol.asyncIterator]() {
        for await (const part of local.stream(request)) {
          if (part.type === 'text-delta') {
            await new Promise((resolve) => setTimeout(resolve, paceMs));
            if (request.signal?.aborted === true) throw request.signal.reason;
          }
          yield part;
        }
      },
    }),
  };
};

/** The options of {@link startAiSdkChatServer}. */
export interface AiSdkChatServerOptions {
  /** The port; 0 (the default) for a free one. */
  readonly port?: number;
  /** The page served at `/` and its script at `/app.js`. */
  readonly page?: { readonly html: string; readonly script: string };
  /** Where running replies are kept (default: one process's memory). */
  readonly streams?: UIMessageStreamStore;
  /** A wait before each streamed text part, in milliseconds (default 0). */
  readonly paceMs?: number;
}

/** A started server: its URL, its stores, and `close()`. */
export interface AiSdkChatServer {
  readonly url: string;
  readonly events: InMemoryEventStore;
  readonly streams: UIMessageStreamStore;
  close(): Promise<void>;
}

/** The body as text, or `undefined` when it is longer than the limit. */
const readBody = async (req: IncomingMessage): Promise<string | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** Writes a web `Response` to Node's `res`, chunk by chunk, as it streams. */
const writeResponse = async (response: Response, res: ServerResponse): Promise<void> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The page went away (a reload): stop reading. The run goes on, kept in the stream store.
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
};

const send = (res: ServerResponse, status: number, text: string): void => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
};

/** `{ id, message }` of a POST body, or why not. */
const chatRequestOf = (
  text: string,
): { readonly id: string; readonly message: unknown } | string => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'send { id, message }';
  const { id, message } = body as { id?: unknown; message?: unknown };
  if (typeof id !== 'string' || !CHAT_ID.test(id)) return 'id must be 1-100 of A-Z a-z 0-9 _ -';
  return { id, message };
};

/**
 * Starts the server on 127.0.0.1.
 *
 * @param options - port, page, stream store, pace
 * @returns its URL, its stores, and `close()`
 */
export const startAiSdkChatServer = async (
  options: AiSdkChatServerOptions = {},
): Promise<AiSdkChatServer> => {
  const events = new InMemoryEventStore();
  const streams = options.streams ?? createMemoryUIMessageStreamStore();
  const provider = pacedProvider(options.paceMs ?? 0);
  const agentOf = (chatId: string) =>
    createAgent({
      provider,
      tools: TOOLS,
      eventStore: {
        store: events,
        streamId: chatId,
        config: { ...PROVIDER_SAFE, maxMessages: 60 },
      },
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = /^\/api\/chat(?:\/([^/]+)(\/stream|\/stop)?)?$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/' && options.page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.page.html);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/app.js' && options.page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(options.page.script);
      return;
    }
    if (route === null) return send(res, 404, 'Not found');
    const chatId = route[1] === undefined ? undefined : decodeURIComponent(route[1]);
    if (chatId !== undefined && !CHAT_ID.test(chatId)) return send(res, 400, 'bad chat id');
    if (req.method === 'POST' && chatId === undefined) {
      const text = await readBody(req);
      if (text === undefined) return send(res, 413, 'Body too large');
      const request = chatRequestOf(text);
      if (typeof request === 'string') return send(res, 400, request);
      const decoded = fromUIMessages([request.message]);
      if (decoded._tag === 'Left') return send(res, 400, decoded.left.message);
      const input = decoded.right;
      if (input.length !== 1 || input[0]?.role !== 'user') {
        return send(res, 400, 'message must be one user message');
      }
      const stream = agentOf(request.id).stream(input, { messageId: randomUUID() });
      await writeResponse(
        toUIMessageStreamResponse(stream, { store: streams, chatId: request.id }),
        res,
      );
      return;
    }
    if (chatId === undefined) return send(res, 405, 'Method not allowed');
    if (req.method === 'GET' && route[2] === undefined) {
      const stored = await events.load(chatId);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(toUIMessages(stored?.state.messages ?? [])));
      return;
    }
    if (req.method === 'GET' && route[2] === '/stream') {
      await writeResponse(await resumeUIMessageStreamResponse({ store: streams, chatId }), res);
      return;
    }
    if (req.method === 'POST' && route[2] === '/stop') {
      await streams.requestStop(chatId);
      res.writeHead(204).end();
      return;
    }
    send(res, 405, 'Method not allowed');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The error's text stays on the server (it may hold paths or keys): the client gets a status.
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    streams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startAiSdkChatServer();
  console.log(`AI SDK chat server listening on ${server.url}`);
  if (process.argv.includes('--once')) {
    const message = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'my name is Ada' }] };
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'demo', message }),
    });
    const body = await response.text();
    const chunks = body
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map(
        (line) => JSON.parse(line.slice(6)) as { type: string; messageId?: string; delta?: string },
      );
    const text = chunks.map((chunk) => chunk.delta ?? '').join('');
    if (!response.ok || chunks.at(-1)?.type !== 'finish') {
      throw new Error(`POST /api/chat answered ${response.status}: ${body}`);
    }
    const stored = (await (await fetch(`${server.url}/api/chat/demo`)).json()) as { id: string }[];
    const sameId = stored[1]?.id === chunks[0]?.messageId;
    console.log(
      `AI SDK chat server: streamed "${text}" in ${chunks.length} chunks; the conversation holds ${stored.length} UI messages, the reply ${sameId ? 'with' : 'WITHOUT'} the streamed id`,
    );
    await server.close();
  }
}
