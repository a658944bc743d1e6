/**
 * A loopback HTTP server that speaks the Anthropic Messages API (`POST /v1/messages`, streaming
 * or not) well enough to test real clients (`@anthropic-ai/sdk`, `@ai-sdk/anthropic`)
 * against it: it checks the headers and the body as the API does, **enforces the API's message
 * rules** (user first, tool pairing, non-empty content, no `system` role inside `messages`) and
 * answers a broken request with HTTP 400 and the API's own error JSON and text. A valid request
 * gets a real Message object, scripted by `respond` or a deterministic default; with
 * `stream: true`, the same message as server-sent events (see `anthropicStream.ts`), after the
 * same checks (a broken request still gets the 400 JSON error). A request with `cache_control`
 * breakpoints gets cache reads and writes in its usage by the API's rules (see `anthropicCache.ts`).
 *
 * Base URLs: `@anthropic-ai/sdk` takes `url` (`new Anthropic({ baseURL: server.url })`);
 * `@ai-sdk/anthropic` appends `/messages` to its base URL, so give it `` `${server.url}/v1` ``.
 *
 * Test support only: it is not part of the library.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildMessage,
  errorBody,
  lastUserText,
  type MessagesRequestBody,
  type ScriptedMessage,
  type ScriptedReply,
} from './anthropicReply';
import { anthropicPromptCache } from './anthropicPromptCache';
import { checkConversation } from './anthropicRules';
import { checkRequestShape } from './anthropicSchema';
import { eventsFor } from './anthropicStream';
import { readBody } from './readBody';

export type {
  MessagesRequestBody,
  RawReply,
  ScriptedMessage,
  ScriptedReply,
  ScriptedToolUse,
} from './anthropicReply';

export interface AnthropicServerOptions {
  /** Answers a valid request; default: `{ text: 'Loopback reply to: <last user text>' }`. */
  readonly respond?: (request: MessagesRequestBody) => ScriptedReply | Promise<ScriptedReply>;
  /**
   * Called before each streamed event is written (`index` 0 for `message_start`): a test may
   * return a promise to hold the stream there (to abort mid-stream).
   */
  readonly beforeEvent?: (index: number, eventCount: number) => void | Promise<void>;
}

export interface AnthropicServer {
  /** The base URL for `new Anthropic({ baseURL })` (no `/v1`). */
  readonly url: string;
  /** Every JSON body posted to `/v1/messages`, in order, rejected ones included. */
  readonly requests: MessagesRequestBody[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const send = (res: ServerResponse, status: number, body: unknown, requestId: string): void => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId });
  res.end(text);
};

/**
 * Starts the server on 127.0.0.1 on a free port.
 *
 * @param options - `respond` scripts the replies to valid requests
 * @returns the base URL, the recorded requests, and `close()`
 */
export const startAnthropicServer = async (
  options: AnthropicServerOptions = {},
): Promise<AnthropicServer> => {
  const requests: MessagesRequestBody[] = [];
  let counter = 0;
  const promptCache = anthropicPromptCache();
  const nextId = (prefix: string): string =>
    `${prefix}_loopback_${String(++counter).padStart(4, '0')}`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = nextId('req');
    const fail = (status: number, type: string, message: string): void =>
      send(res, status, errorBody(type, message, requestId), requestId);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== '/v1/messages') {
      return fail(404, 'not_found_error', 'Not Found');
    }
    const text = await readBody(req, MAX_BODY_BYTES);
    if (text === undefined) {
      return fail(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    }
    if (req.headers['x-api-key'] === undefined && req.headers['authorization'] === undefined) {
      return fail(401, 'authentication_error', 'x-api-key header is required');
    }
    if (req.headers['anthropic-version'] === undefined) {
      return fail(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(
        400,
        'invalid_request_error',
        'There was an error parsing the body of your request.',
      );
    }
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      requests.push(body as MessagesRequestBody);
    }
    const problem = checkRequestShape(body) ?? checkRules(body as MessagesRequestBody);
    if (problem !== undefined) return fail(400, 'invalid_request_error', problem);
    const request = body as MessagesRequestBody;
    const scripted = options.respond
      ? await options.respond(request)
      : { text: `Loopback reply to: ${lastUserText(request.messages)}` };
    const cache = promptCache.usage(request);
    if ('body' in scripted) send(res, scripted.status ?? 200, scripted.body, requestId);
    else if (request.stream === true) {
      const message = buildMessage(request, scripted, nextId, cache);
      await stream(res, message, requestId, scripted.failAfter);
    } else send(res, 200, buildMessage(request, scripted, nextId, cache), requestId);
  };

  const stream = async (
    res: ServerResponse,
    message: Record<string, unknown>,
    requestId: string,
    failAfter?: ScriptedMessage['failAfter'],
  ): Promise<void> => {
    const events = eventsFor(message);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': requestId,
    });
    for (const [i, { event, data }] of events.entries()) {
      await options.beforeEvent?.(i, events.length);
      if (res.destroyed) return;
      if (failAfter !== undefined && i === failAfter.events) {
        const error = errorBody('overloaded_error', failAfter.message, requestId);
        res.write(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
        break;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const requestId = nextId('req');
      send(
        res,
        500,
        errorBody('api_error', `loopback server failed: ${String(error)}`, requestId),
        requestId,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};

/** The stream flag and the conversation rules, once the shape is known to be valid. */
const checkRules = (body: MessagesRequestBody): string | undefined => {
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    return 'stream: Input should be a valid boolean';
  }
  return checkConversation(body.messages, body.system);
};
