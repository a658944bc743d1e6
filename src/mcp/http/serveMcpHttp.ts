import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { describeValue, MemoryArgumentError } from '../../library';
import {
  GraphChanges,
  graphServer,
  readServerOptions,
  type MemoryMcpServerOptions,
} from '../createMemoryMcpServer';

/**
 * Options of {@link serveMcpHttp}: the server's, plus where to listen.
 *
 * @example
 * ```ts
 * const options: McpHttpOptions = { store: new InMemoryKnowledgeStore(), port: 3001 };
 * ```
 */
export interface McpHttpOptions extends MemoryMcpServerOptions {
  /** The TCP port (`0`: one the system picks). */
  readonly port: number;
  /** The address to bind (default `'127.0.0.1'`: this machine only). */
  readonly host?: string | undefined;
  /** The largest request body, in bytes (default 4 MiB): a larger one is answered 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * A session that sends nothing for this long is closed (default 30 minutes): a client that
   * vanished without ending its session does not hold a server for ever. Its next request is
   * answered 404, and the SDK's client starts a new session.
   */
  readonly sessionIdleMs?: number | undefined;
}

/**
 * A running MCP endpoint: its URL (`http://127.0.0.1:PORT/mcp`) and how to stop it.
 *
 * @example
 * ```ts
 * const endpoint: McpHttpEndpoint = await serveMcpHttp({ store, port: 0 });
 * await endpoint.close();
 * ```
 */
export interface McpHttpEndpoint {
  readonly url: URL;
  /** Closes every session and the listening socket. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const jsonRpcError = (res: ServerResponse, status: number, message: string): void => {
  // A body refused unread: the connection is closed after the answer, not reused.
  const close = status === 413 ? { connection: 'close' } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...close });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
};

/** The body of `req` as JSON, at most `limit` bytes; `undefined` for a body that is not JSON. */
const readJson = (req: IncomingMessage, limit: number) =>
  new Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }>(
    (resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          // Answered at once; the rest of the body is not read (the socket closes after it).
          req.removeAllListeners('data');
          req.pause();
          resolve({ ok: false, status: 413, message: `the request body is over ${limit} bytes` });
        } else chunks.push(chunk);
      });
      req.on('error', () => resolve({ ok: false, status: 400, message: 'the request failed' }));
      req.on('end', () => {
        try {
          resolve({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch {
          resolve({ ok: false, status: 400, message: 'Parse error: the body is not JSON' });
        }
      });
    },
  );

/**
 * Serves the knowledge graph over MCP's Streamable HTTP at `/mcp`, on `127.0.0.1` unless `host`
 * says otherwise: one session per client (`mcp-session-id`), each with its own server over the
 * one store, so any number of clients read and write one graph (writes conditional on the
 * record's revision, retried on a conflict) and each subscribed client hears of every change.
 * The namespace is the server's option only, never the request's. On loopback, a request whose
 * `Host` or `Origin` names another site is refused (403: DNS rebinding); a body that is not JSON
 * (400), too large (413) or for an unknown session (404) is refused without reaching the tools.
 *
 * @example
 * ```ts
 * const endpoint = await serveMcpHttp({ store: new SqliteKnowledgeStore({ path: 'graph.db' }), port: 3001 });
 * endpoint.url.href; // 'http://127.0.0.1:3001/mcp'
 * ```
 */
export const serveMcpHttp = async (options: McpHttpOptions): Promise<McpHttpEndpoint> => {
  const { options: serverOptions, more } = readServerOptions(options, 'serveMcpHttp', [
    'port',
    'host',
    'maxBodyBytes',
    'sessionIdleMs',
  ]);
  const {
    port,
    host = '127.0.0.1',
    maxBodyBytes = 4 * 1024 * 1024,
    sessionIdleMs = 30 * 60 * 1000,
  } = more as { port: number; host?: string; maxBodyBytes?: number; sessionIdleMs?: number };
  if (typeof host !== 'string' || host === '') {
    throw new MemoryArgumentError(
      'serveMcpHttp',
      `options.host must be a host name or address such as '127.0.0.1', received ${describeValue(host)}`,
    );
  }
  for (const [name, value] of [
    ['port', port],
    ['maxBodyBytes', maxBodyBytes],
    ['sessionIdleMs', sessionIdleMs],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || (name === 'port' && value > 65_535)) {
      throw new MemoryArgumentError(
        'serveMcpHttp',
        `options.${name} must be a whole number${name === 'port' ? ' from 0 to 65535' : ' of 0 or more'}, received ${describeValue(value)}`,
      );
    }
  }
  const changes = new GraphChanges();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new WeakMap<StreamableHTTPServerTransport, number>();
  // Idle sessions closed, checked a few times per idle period (the timer keeps no process alive).
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const transport of sessions.values()) {
        if (now - (lastSeen.get(transport) ?? now) > sessionIdleMs) void transport.close();
      }
    },
    Math.max(50, Math.min(60_000, sessionIdleMs / 4)),
  );
  sweeper.unref();
  let bound = port;
  const local = LOOPBACK.has(host);
  const hostAllowed = (value: string | undefined): boolean => {
    if (!local) return true;
    if (value === undefined) return false;
    return [`127.0.0.1:${bound}`, `localhost:${bound}`, `[::1]:${bound}`].includes(value);
  };
  const originAllowed = (value: string | undefined): boolean =>
    !local ||
    value === undefined ||
    [`http://127.0.0.1:${bound}`, `http://localhost:${bound}`, `http://[::1]:${bound}`].includes(
      value,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host) || !originAllowed(req.headers.origin)) {
      jsonRpcError(res, 403, 'Forbidden: this server answers its own host only');
      return;
    }
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      jsonRpcError(res, 404, 'Not found: the endpoint is /mcp');
      return;
    }
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (session !== undefined) lastSeen.set(session, Date.now());
    if (req.method === 'POST') {
      const read = await readJson(req, maxBodyBytes);
      if (!read.ok) {
        if (read.status === 413) res.on('finish', () => req.destroy());
        jsonRpcError(res, read.status, read.message);
        return;
      }
      if (session !== undefined) {
        await session.handleRequest(req, res, read.body);
        return;
      }
      if (id !== undefined) {
        jsonRpcError(res, 404, 'Session not found');
        return;
      }
      if (!isInitializeRequest(read.body)) {
        jsonRpcError(res, 400, 'Bad Request: no session; start one with initialize');
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, transport);
          lastSeen.set(transport, Date.now());
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await graphServer(serverOptions, changes).connect(transport);
      await transport.handleRequest(req, res, read.body);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (session === undefined) {
        jsonRpcError(res, id === undefined ? 400 : 404, 'Session not found');
        return;
      }
      await session.handleRequest(req, res);
      return;
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) jsonRpcError(res, 500, 'Internal error');
      else res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    clearInterval(sweeper);
    throw error;
  }
  bound = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: new URL(`http://${shown}:${bound}/mcp`),
    close: async () => {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
};
