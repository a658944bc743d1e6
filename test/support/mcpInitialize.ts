/**
 * A client's first JSON-RPC request to an MCP server, `initialize`, as the MCP tests send it by
 * hand (on stdio among garbage lines, over HTTP with hostile headers) where the SDK's client would
 * not let them.
 *
 * @example
 * ```ts
 * child.stdin.write(`${JSON.stringify(INITIALIZE_REQUEST)}\n`);
 * ```
 */
export const INITIALIZE_REQUEST = Object.freeze({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
});
