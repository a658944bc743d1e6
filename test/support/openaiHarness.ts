/**
 * Shared set-up of the OpenAI tests: a loopback server per test (closed after it), the real
 * `openai` client pointed at it, and the provider under test.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach } from 'vitest';
import type { Message } from 'conversation-memory';
import { openaiProvider } from 'conversation-memory/openai';
import type { CompletionRequest } from 'conversation-memory';
import {
  type OpenAIServer,
  type OpenAIServerOptions,
  startOpenAIServer,
} from './loopback/openaiServer';

/**
 * Registers an `afterEach` that closes the server, and returns `start(options)`, which starts a
 * server and returns it with a client (no retries) and a provider (`defaultModel: 'gpt-default'`).
 */
export const useOpenAIServer = () => {
  let current: OpenAIServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options?: OpenAIServerOptions) => {
    await current?.close();
    const server = await startOpenAIServer(options);
    current = server;
    const client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
    return { server, client, provider: openaiProvider({ client, defaultModel: 'gpt-default' }) };
  };
};

/** What a promise rejects with (throws when it resolves). */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
};

/** A `create` call with raw wire messages (which may break the API's rules). */
export const send = (client: OpenAI, messages: unknown[], extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({
    model: 'gpt-test',
    messages: messages as ChatCompletionMessageParam[],
    ...extra,
  });

/** A wire tool call. */
export const wireCall = (id: string, name = 'calc', args = '{}') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

/** A provider request for `messages` (model `gpt-test`, no system prompt). */
export const request = (
  messages: Message[],
  extra: Partial<CompletionRequest> = {},
): CompletionRequest => ({ model: 'gpt-test', systemPrompt: '', messages, ...extra });

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
