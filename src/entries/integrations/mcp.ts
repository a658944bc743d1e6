/**
 * `conversation-memory/mcp` (Node): the knowledge graph served over the Model Context Protocol.
 * `createMemoryMcpServer` gives the official SDK's server with the reference memory server's
 * nine tools and its `memory://knowledge-graph` resource, over any knowledge store; the JSONL
 * helpers read and write the reference server's `memory.jsonl` byte for byte. Needs the optional
 * peer `@modelcontextprotocol/sdk` (1.x).
 *
 * @packageDocumentation
 * @module conversation-memory/mcp
 */
export {
  createMemoryMcpServer,
  type MemoryMcpServerOptions,
} from '../../mcp/createMemoryMcpServer';
export {
  serveMcpHttp,
  type McpHttpEndpoint,
  type McpHttpOptions,
} from '../../mcp/http/serveMcpHttp';
export { graphInForce } from '../../mcp/graph/graphReads';
export {
  MCP_GRAPH_ID,
  OBSERVATION_KEY,
  type McpEntity,
  type McpGraph,
  type McpRelation,
} from '../../mcp/graph/mcpGraph';
export {
  formatReferenceJsonl,
  knowledgeOfGraph,
  parseReferenceJsonl,
} from '../../mcp/graph/referenceJsonl';
