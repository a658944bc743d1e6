/**
 * Shared set-up of the embedder tests: a loopback OpenAI server per test (closed after it), the
 * real `openai` client pointed at it (no retries), and an embedder over it.
 */
import OpenAI from 'openai';
import { afterEach } from 'vitest';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from 'conversation-memory/openai';
import { loopbackVector } from './loopback/openaiEmbeddings';
import {
  type OpenAIServer,
  type OpenAIServerOptions,
  startOpenAIServer,
} from './loopback/openaiServer';

/** The `dimensions` the tests ask for (short vectors keep the replies small). */
export const DIMENSIONS = 4;

/** The vector the loopback server gives `text` at {@link DIMENSIONS}. */
export const vectorOf = (text: string): number[] => loopbackVector(text, DIMENSIONS);

/**
 * Registers an `afterEach` that closes the servers, and returns `start(server, embedder)`: a
 * server, a client on it, and an embedder (`dimensions: 4` unless the options say otherwise).
 */
export const useEmbeddingsServer = () => {
  const open: OpenAIServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (
    serverOptions: OpenAIServerOptions = {},
    options: Partial<OpenAIEmbedderOptions> = {},
  ) => {
    const server = await startOpenAIServer(serverOptions);
    open.push(server);
    const client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
    const embedder = createOpenAIEmbedder({ client, dimensions: DIMENSIONS, ...options });
    /** The inputs of each embeddings request the server accepted, in order. */
    const inputs = () => server.embeddingRequests.map((request) => request.input);
    return { server, client, embedder, inputs };
  };
};
