import type OpenAI from 'openai';
import {
  AgentConfigError,
  type CompletionRequest,
  type CompletionResult,
  type CompletionStreamPart,
  type Provider,
} from 'conversation-memory';
import { readAdapterOptions } from '../shared/readAdapterOptions';
import { chatParams } from './chatParams';
import { callError, readCompletion } from './readCompletion';
import { streamChat } from './streamChat';

/**
 * Options of {@link openaiProvider}.
 *
 * @example
 * ```ts
 * const options: OpenAIProviderOptions = { client: new OpenAI(), defaultModel: 'gpt-4o-mini' };
 * ```
 */
export interface OpenAIProviderOptions {
  /** An `openai` client (`new OpenAI({ apiKey })`); its retries, timeout and base URL apply. */
  readonly client: OpenAI;
  /** The model used when a request names none (`request.model === ''`). */
  readonly defaultModel?: string;
  /** The provider's name in logs and errors; default `'openai'`. */
  readonly name?: string;
}

const API = 'openaiProvider';

/** What a value is, for an option error (redux's `kindOf`): the value itself is never echoed. */
const kindOf = (value: unknown): string => {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};

interface ReadOptions {
  readonly client: OpenAI;
  readonly name: string;
  readonly defaultModel?: string;
}

const readOptions = (options: OpenAIProviderOptions): ReadOptions => {
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const given = readAdapterOptions(options, ['client', 'defaultModel', 'name'], API, {
    example: '{ client }',
    error: AgentConfigError,
    required: true,
    hints: { model: 'defaultModel' },
  });
  const { client, defaultModel, name = 'openai' } = given as Partial<OpenAIProviderOptions>;
  const create: unknown = (client as Partial<OpenAI> | undefined)?.chat?.completions?.create;
  if (typeof create !== 'function') {
    throw new AgentConfigError(
      API,
      `options.client must be an openai client (new OpenAI({ apiKey })), received ${kindOf(client)}`,
    );
  }
  if (defaultModel !== undefined && (typeof defaultModel !== 'string' || defaultModel === '')) {
    throw new AgentConfigError(
      API,
      `options.defaultModel must be a non-empty string, received ${kindOf(defaultModel)}`,
    );
  }
  if (typeof name !== 'string' || name === '') {
    throw new AgentConfigError(
      API,
      `options.name must be a non-empty string, received ${kindOf(name)}`,
    );
  }
  const checked = client as OpenAI;
  return defaultModel === undefined
    ? { client: checked, name }
    : { client: checked, name, defaultModel };
};

/**
 * A {@link Provider} that calls OpenAI's Chat Completions through the official `openai` client.
 *
 * Each `complete(request)` makes one `client.chat.completions.create` call with:
 * - `model`: `request.model`, or `defaultModel` when the request's is `''`;
 * - `messages`: the system prompt first (when not empty) as a `system` message, then
 *   `toOpenAIChat(request.messages)` (see there for what each field becomes);
 * - `max_completion_tokens: request.maxTokens` when set. Not the older `max_tokens`: OpenAI
 *   deprecated it, and reasoning models (o-series, gpt-5) refuse it (`Unsupported parameter:
 *   'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.`). A
 *   server that knows only `max_tokens` ignores or refuses the newer name;
 * - `tools: [{ type: 'function', function: { name, description, parameters } }]` only when the
 *   request has tools (the API refuses an empty list);
 * - `prompt_cache_key: request.cache.key` when the request has a cache key (the agent's
 *   `config.cache` gives its session's or event stream's key, or `config.cacheKey`), so the calls
 *   of one conversation reach the same prompt cache; a key over 64 characters (the API's limit)
 *   is sent as its first 49 characters, `~` and a hash of the whole key. OpenAI caches prefixes
 *   by itself: the view's breakpoints are not sent;
 * - `request.signal` as the call's `signal`.
 *
 * The reply is read with `fromOpenAIChatCompletion`: the first choice's message (text, tool calls
 * with their ids and parsed arguments; a refusal's text as content) and the usage
 * (`prompt_tokens` → `inputTokens`, `completion_tokens` → `outputTokens`,
 * `prompt_tokens_details.cached_tokens` → `cachedInputTokens`; no `usage` when the reply has
 * none), streaming or not. A reply that is not a usable completion (no choices, arguments that are not a
 * JSON object, wrong types, a body that is not a JSON object, a JSON body that does not parse)
 * rejects with `ProviderResponseError` naming each path and value. An empty reply (`content:
 * null`, no tool calls, as with `finish_reason: 'content_filter'`) resolves with that message;
 * the finish reason is not reported. Only the first choice is read. Errors of the HTTP call (`OpenAI.BadRequestError` with the API's message, timeouts,
 * `APIUserAbortError`) pass through unchanged.
 *
 * `stream(request)` makes the same call with `stream: true` and `stream_options: { include_usage:
 * true }`: the content streams as `text-delta` parts as the chunks arrive; the chunks are
 * assembled (tool calls from their fragments, by `index`) into the `chat.completion` the call
 * would have returned, which is read as above, so `finish` carries exactly what `complete` would
 * resolve to and the same reply errors; its tool calls come as `tool-call` parts just before it.
 * A refusal comes as one delta at the end (deltas joined = the result's text). A stream that ends
 * without a `finish_reason` rejects with `ProviderResponseError`; an abort ends the iteration with
 * the signal's reason, and nothing after it.
 *
 * @param options - `client`, and optionally `defaultModel` and `name`
 * @returns a provider, shareable between agents
 * @throws AgentConfigError when `client` is not an openai client, or an option has the wrong type
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { openaiProvider } from 'conversation-memory/openai';
 *
 * const provider = openaiProvider({ client: new OpenAI(), defaultModel: 'gpt-4o-mini' });
 * const { message, usage } = await provider.complete({
 *   model: 'gpt-4o-mini', systemPrompt: 'Be brief.', messages: [userMessage('Hi!')],
 * });
 * ```
 */
export const openaiProvider = (options: OpenAIProviderOptions): Provider => {
  const { client, defaultModel, name } = readOptions(options);
  const complete = async (request: CompletionRequest): Promise<CompletionResult> => {
    const params = chatParams(request, defaultModel, `${API}.complete`);
    let completion: unknown;
    try {
      completion = await client.chat.completions.create(
        params,
        request.signal === undefined ? undefined : { signal: request.signal },
      );
    } catch (error) {
      throw callError(error, name, `${API}.complete`);
    }
    return readCompletion(completion, name, `${API}.complete`);
  };
  const settings = { client, name, defaultModel, api: `${API}.stream` };
  const stream = (request: CompletionRequest): AsyncIterable<CompletionStreamPart> =>
    streamChat(settings, request);
  const target = 'openai' as const;
  return defaultModel === undefined
    ? { name, target, complete, stream }
    : { name, target, defaultModel, complete, stream };
};
