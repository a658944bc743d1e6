/**
 * A loopback HTTP server that speaks OpenAI's Chat Completions (`POST /v1/chat/completions`) and
 * enforces its request and message rules (see `openaiRules.ts`), so that the real `openai` client
 * (or `@ai-sdk/openai`'s `.chat()` model) can be tested against it offline. A request with
 * `stream: true` that passes the same checks is answered with server-sent events (see
 * `openaiStream.ts`); one that fails them gets the same 400 JSON error as without streaming.
 * It also answers `POST /v1/embeddings` (see `openaiEmbeddings.ts`), scripted by
 * `respondEmbeddings`, its checked requests kept in `embeddingRequests`. Replies report
 * `prompt_tokens_details.cached_tokens` by OpenAI's prompt caching rules (see `openaiCache.ts`).
 *
 * ```ts
 * const server = await startOpenAIServer({ respond: () => ({ text: 'Hi!' }) });
 * const client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
 * // … client.chat.completions.create(…) …
 * await server.close();
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkEmbeddingsRequest,
  embeddingsReplyFor,
  type EmbeddingsRequestBody,
  type ScriptedEmbeddingsReply,
} from './openaiEmbeddings';
import { openaiPromptCache } from './openaiPromptCache';
import { completionFor, type ScriptedReply } from './openaiReply';
import { checkChatRequest } from './openaiRules';
import { chunksFor } from './openaiStream';
import { type ChatRequestBody, invalidRequest, type OpenAIErrorBody } from './openaiWire';
import { readBody } from './readBody';

export type { ScriptedReply, ScriptedToolCall } from './openaiReply';
export type { ChatRequestBody, ChatRequestMessage, OpenAIErrorBody } from './openaiWire';
export type { EmbeddingsRequestBody, ScriptedEmbeddingsReply } from './openaiEmbeddings';

/** A request that passed the checks, as `respond` sees it. */
export interface ParsedChatRequest {
  readonly body: ChatRequestBody;
  /** 0 for the first request this server answered with a completion, then 1, 2, … */
  readonly index: number;
}

/** A request the server refused, and the error body it answered with. */
export interface RejectedRequest {
  readonly body: unknown;
  readonly status: number;
  readonly error: OpenAIErrorBody;
}

export interface OpenAIServerOptions {
  /** Scripts the replies; default: a deterministic text reply (see `openaiReply.ts`). */
  readonly respond?: (request: ParsedChatRequest) => ScriptedReply | Promise<ScriptedReply>;
  /**
   * Called before each streamed chunk is written (`index` 0 for the first; the `[DONE]` line is
   * `chunkCount`): a test may return a promise to hold the stream there (to abort mid-stream).
   */
  readonly beforeChunk?: (index: number, chunkCount: number) => void | Promise<void>;
  /**
   * Scripts the replies of `POST /v1/embeddings` (`index` counts embeddings requests only);
   * default (or `undefined`): each input's deterministic vector, in order.
   */
  readonly respondEmbeddings?: (request: {
    readonly body: EmbeddingsRequestBody;
    readonly index: number;
  }) => ScriptedEmbeddingsReply | Promise<ScriptedEmbeddingsReply>;
}

export interface OpenAIServer {
  /** The base URL, ending in `/v1`: pass it as the client's `baseURL`. */
  readonly url: string;
  /** Every request body that passed the checks, in order. */
  readonly requests: ChatRequestBody[];
  /** Every embeddings request body that passed the checks, in order. */
  readonly embeddingRequests: EmbeddingsRequestBody[];
  /** Every request refused with an error, in order. */
  readonly rejected: RejectedRequest[];
  close(): Promise<void>;
}

/** Request bodies larger than this are refused (413). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const PARSE_ERROR =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)";

const send = (
  res: ServerResponse,
  status: number,
  body: string,
  contentType = 'application/json',
): void => {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'x-request-id': `req_loopback_${Date.now()}`,
  });
  res.end(body);
};

/**
 * Starts the server on 127.0.0.1, on a free port.
 *
 * @param options - `respond` scripts each reply from the checked request
 * @returns the base URL, the requests received, and `close()`
 */
export const startOpenAIServer = async (
  options: OpenAIServerOptions = {},
): Promise<OpenAIServer> => {
  const requests: ChatRequestBody[] = [];
  const embeddingRequests: EmbeddingsRequestBody[] = [];
  const rejected: RejectedRequest[] = [];
  const promptCache = openaiPromptCache();
  const refuse = (res: ServerResponse, body: unknown, status: number, error: OpenAIErrorBody) => {
    rejected.push({ body, status, error });
    send(res, status, JSON.stringify(error));
  };

  /** The reply of the test's script, or the 500 its throw becomes (then `undefined`). */
  const scripted = async <T>(
    res: ServerResponse,
    parsed: unknown,
    script: () => T | Promise<T>,
  ): Promise<{ reply: T } | undefined> => {
    try {
      return { reply: await script() };
    } catch (error) {
      const message = `The test's respond function threw: ${String(error)}`;
      const body: OpenAIErrorBody = {
        error: { message, type: 'server_error', param: null, code: null },
      };
      rejected.push({ body: parsed, status: 500, error: body });
      send(res, 500, JSON.stringify(body));
      return undefined;
    }
  };

  const sendRaw = (
    res: ServerResponse,
    reply: { readonly raw: unknown; readonly status?: number; readonly contentType?: string },
  ): void => {
    const raw = reply.raw;
    send(
      res,
      reply.status ?? 200,
      typeof raw === 'string' ? raw : JSON.stringify(raw),
      reply.contentType,
    );
  };

  const handleEmbeddings = async (res: ServerResponse, parsed: unknown): Promise<void> => {
    const checked = checkEmbeddingsRequest(parsed);
    if (!checked.ok) {
      refuse(res, parsed, 400, checked.error);
      return;
    }
    const index = embeddingRequests.length;
    embeddingRequests.push(checked.body);
    const outcome = await scripted(res, parsed, () =>
      options.respondEmbeddings?.({ body: checked.body, index }),
    );
    if (outcome === undefined || res.destroyed) return;
    const { reply } = outcome;
    if (reply !== undefined && 'raw' in reply) sendRaw(res, reply);
    else send(res, 200, JSON.stringify(embeddingsReplyFor(checked.body, reply)));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    const embeddings = path === '/v1/embeddings';
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && !embeddings)) {
      refuse(
        res,
        undefined,
        404,
        invalidRequest(`Invalid URL (${req.method ?? '?'} ${path ?? ''})`),
      );
      return;
    }
    const text = await readBody(req, MAX_BODY_BYTES);
    if (text === undefined) {
      refuse(res, undefined, 413, invalidRequest('Request body too large for this test server.'));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      refuse(res, text, 400, invalidRequest(PARSE_ERROR));
      return;
    }
    if (embeddings) {
      await handleEmbeddings(res, parsed);
      return;
    }
    const checked = checkChatRequest(parsed);
    if (!checked.ok) {
      refuse(res, parsed, 400, checked.error);
      return;
    }
    const index = requests.length;
    requests.push(checked.body);
    const outcome = await scripted(
      res,
      parsed,
      async (): Promise<ScriptedReply> =>
        (await options.respond?.({ body: checked.body, index })) ?? {},
    );
    if (outcome === undefined) return;
    const { reply } = outcome;
    if (typeof reply === 'object' && 'raw' in reply) {
      sendRaw(res, reply);
      return;
    }
    const cached = promptCache.read(checked.body);
    const completion = completionFor(checked.body, reply, index, cached);
    if (checked.body.stream === true) await stream(res, checked.body, completion);
    else send(res, 200, JSON.stringify(completion));
  };

  /** Writes the completion as `data: {chunk}` events, then `data: [DONE]`. */
  const stream = async (
    res: ServerResponse,
    body: ChatRequestBody,
    completion: Record<string, unknown>,
  ): Promise<void> => {
    const streamOptions = body['stream_options'] as { include_usage?: unknown } | null | undefined;
    const chunks = chunksFor(completion, streamOptions?.include_usage === true);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-request-id': `req_loopback_${Date.now()}`,
    });
    for (const [i, chunk] of chunks.entries()) {
      await options.beforeChunk?.(i, chunks.length);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    await options.beforeChunk?.(chunks.length, chunks.length);
    res.end('data: [DONE]\n\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, JSON.stringify(invalidRequest(String(error))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    rejected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
