/**
 * The MCP server over Streamable HTTP (issue #33): many clients of one endpoint on one graph,
 * with the SDK's real HTTP client; none loses an update, each subscribed client hears of every
 * client's change; requests from another site (DNS rebinding), bodies that are not JSON or too
 * large, and unknown sessions are refused before the tools.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryKnowledgeStore } from 'conversation-memory/knowledge';
import { MCP_GRAPH_ID, serveMcpHttp, type McpHttpEndpoint } from 'conversation-memory/mcp';
import { INITIALIZE_REQUEST } from '../support/mcpInitialize';
import { logEntries, writeLogConcurrently } from '../support/mcpLogWrites';

const connect = async (url: URL): Promise<Client> => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
};

/** A client's first request: `initialize`. */
const INIT = JSON.stringify(INITIALIZE_REQUEST);

const post = (url: URL, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
  });

describe('MCP server over Streamable HTTP', () => {
  const store = new InMemoryKnowledgeStore();
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => {
    endpoint = await serveMcpHttp({ store, namespace: 'team', port: 0, maxBodyBytes: 100_000 });
  });
  afterAll(async () => {
    await endpoint.close();
  });

  it('listens on loopback at /mcp', () => {
    expect(endpoint.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('many clients on one graph lose no update, and each subscriber hears of every change', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => connect(endpoint.url)));
    const heard = clients.map(() => 0);
    for (const [i, client] of clients.entries()) {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
        heard[i] = (heard[i] ?? 0) + 1;
      });
    }
    await clients[3]?.subscribeResource({ uri: 'memory://knowledge-graph' });
    // Through clients 0 to 2; client 3 only listens.
    await writeLogConcurrently(clients.slice(0, 3), 40);
    const loaded = await store.load(MCP_GRAPH_ID, { namespace: 'team' });
    const log = loaded?.state.entities.find((e) => e.name === 'Log');
    expect(log?.attributes.map((a) => a.value).sort()).toEqual(logEntries(40));
    // Client 3 wrote nothing and subscribed: it heard of the 41 writes; the others did not subscribe.
    await expect.poll(() => heard[3], { timeout: 5_000 }).toBe(41);
    expect(heard.slice(0, 3)).toEqual([0, 0, 0]);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('refuses another site, a body that is not JSON or too large, and an unknown session', async () => {
    expect((await post(endpoint.url, INIT, { origin: 'http://evil.example' })).status).toBe(403);
    // A page of another site whose name resolves to this machine (DNS rebinding) sends its Host.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        endpoint.url,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end(INIT);
    });
    expect(rebound).toBe(403);
    expect((await post(endpoint.url, '{not json')).status).toBe(400);
    expect((await post(endpoint.url, JSON.stringify({ pad: 'x'.repeat(120_000) }))).status).toBe(
      413,
    );
    expect((await post(endpoint.url, INIT, { 'mcp-session-id': 'no-such-session' })).status).toBe(
      404,
    );
    expect(
      (await post(endpoint.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).status,
    ).toBe(400);
    // Still serving.
    const client = await connect(endpoint.url);
    expect((await client.listTools()).tools).toHaveLength(12);
    await client.close();
  });

  it('closes a session idle past sessionIdleMs; bad options are refused by name', async () => {
    const quick = await serveMcpHttp({ store, port: 0, sessionIdleMs: 2_000 });
    const opened = await post(quick.url, INIT);
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    expect(session).not.toBe('');
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const alive = await post(quick.url, list, headers);
    await alive.text();
    expect(alive.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await post(quick.url, list, headers)).status).toBe(404);
    await quick.close();
    await expect(serveMcpHttp({ store, port: 70_000 })).rejects.toThrow(
      /options\.port must be a whole number from 0 to 65535, received 70000/,
    );
    const refused: [Record<string, unknown>, string][] = [
      [
        { store, port: '3001' },
        'options.port must be a whole number from 0 to 65535, received "3001"',
      ],
      [{ store, port: 0, host: '' }, 'serveMcpHttp: options.host must be a host name or address'],
      [{ store, port: 0, host: 1 }, 'options.host must be a host name or address such as'],
      [
        { store, port: 0, maxBodyBytes: -1 },
        'options.maxBodyBytes must be a whole number of 0 or more',
      ],
      [{ port: 0 }, 'serveMcpHttp: options.store must be a knowledge store (load and save)'],
    ];
    for (const [options, text] of refused) {
      await expect(serveMcpHttp(options as never)).rejects.toThrow(text);
    }
  });
});
