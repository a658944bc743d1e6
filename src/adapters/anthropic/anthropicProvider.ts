import type Anthropic from '@anthropic-ai/sdk';
import {
  AgentConfigError,
  type CompletionRequest,
  type CompletionResult,
  type CompletionStreamPart,
  type Provider,
} from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readAdapterOptions } from '../shared/readAdapterOptions';
import { messagesParams, readReply } from './messagesParams';
import { streamMessages } from './streamMessages';

const API = 'anthropicProvider';

/**
 * The `max_tokens` sent when neither the request nor the options give one. Anthropic requires
 * `max_tokens` on every call; 1024 is the value of Anthropic's own examples, enough for a chat
 * turn or a tool call, small enough to bound a runaway reply.
 *
 * @example
 * ```ts
 * anthropicProvider({ client, defaultMaxTokens: ANTHROPIC_DEFAULT_MAX_TOKENS * 4 });
 * ```
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/**
 * Options of {@link anthropicProvider}.
 *
 * @example
 * ```ts
 * const options: AnthropicProviderOptions = { client: new Anthropic(), defaultModel: 'claude-sonnet-4-5' };
 * ```
 */
export interface AnthropicProviderOptions {
  /** The client, `new Anthropic({ apiKey })` from `@anthropic-ai/sdk`. */
  readonly client: Anthropic;
  /** The model when a request names none (`request.model` is `''`). */
  readonly defaultModel?: string;
  /** `max_tokens` when a request gives no `maxTokens`; default {@link ANTHROPIC_DEFAULT_MAX_TOKENS}. */
  readonly defaultMaxTokens?: number;
  /** The provider's name in logs and errors; default `'anthropic'`. */
  readonly name?: string;
}

/** The options, read once and checked: the copy the provider uses. */
const checkOptions = (options: AnthropicProviderOptions): AnthropicProviderOptions => {
  const fail = (what: string): never => {
    throw new AgentConfigError(API, what);
  };
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const given = readAdapterOptions(
    options,
    ['client', 'defaultModel', 'defaultMaxTokens', 'name'],
    API,
    {
      example: '{ client }',
      error: AgentConfigError,
      required: true,
      hints: {
        model: 'defaultModel',
        maxTokens: 'defaultMaxTokens',
        max_tokens: 'defaultMaxTokens',
      },
    },
  );
  const { client, defaultModel, defaultMaxTokens, name } =
    given as Partial<AnthropicProviderOptions>;
  const messages = (client as { messages?: { create?: unknown } } | undefined)?.messages;
  if (typeof messages?.create !== 'function') {
    fail(
      `options.client must be an Anthropic client (new Anthropic()), received ${describeValue(client)}`,
    );
  }
  if (defaultModel !== undefined && (typeof defaultModel !== 'string' || defaultModel === '')) {
    fail(
      `options.defaultModel must be a non-empty string, received ${describeValue(defaultModel)}`,
    );
  }
  if (
    defaultMaxTokens !== undefined &&
    !(Number.isInteger(defaultMaxTokens) && defaultMaxTokens >= 1)
  ) {
    fail(
      `options.defaultMaxTokens must be an integer ≥ 1, received ${describeValue(defaultMaxTokens)}`,
    );
  }
  if (name !== undefined && typeof name !== 'string') {
    fail(`options.name must be a string, received ${describeValue(name)}`);
  }
  return given as AnthropicProviderOptions;
};

/**
 * A {@link Provider} backed by the Anthropic Messages API through `@anthropic-ai/sdk`'s client
 * (an optional peer dependency: install it to use this subpath).
 *
 * Each `complete(request)` makes one `client.messages.create` call (non-streaming), with:
 * - `model`: the request's, or `defaultModel` when the request's is `''`;
 * - `max_tokens`: `request.maxTokens`, else `defaultMaxTokens`, else 1024;
 * - `system`: the request's `systemPrompt` first, then the texts of the system messages among
 *   `request.messages` in their order (such as the agent's `[Conversation Summary]`), joined with
 *   a blank line; left out when all are empty;
 * - `messages`: `toAnthropic(request.messages).messages` (tool calls as `tool_use` blocks,
 *   consecutive tool results merged into one user message, images as image blocks);
 * - `tools`: `[{ name, description, input_schema: parameters }]`, only when there are tools;
 * - with `request.cache` (the agent's `config.cache`, or a view's `cache`): `cache_control:
 *   { type: 'ephemeral' }` (with `ttl: '1h'` for the one-hour cache) on the last block of each
 *   message at `cache.breakpoints` (see `toAnthropic`), `system` as text blocks, and one more on
 *   the system prompt's block when the breakpoints leave room (four in all, the API's limit).
 *   Tools are never marked: they come first, so every breakpoint caches them too. Without
 *   `cache`, nothing of this is sent;
 * - the request's `signal`, passed to the client's request options.
 *
 * The reply becomes one assistant message (see `fromAnthropicReply`: text blocks joined, tool_use
 * blocks as tool calls with their ids, an empty reply as `content: ''`) and the usage
 * `{ inputTokens, outputTokens, cachedInputTokens?, cacheWriteTokens? }` (`inputTokens` counts the
 * cache reads and writes too, as OpenAI's `prompt_tokens` does), streaming or not. A reply that is not a valid Message object rejects with a
 * `ProviderResponseError` naming the path and the value. Errors of the call itself (the SDK's
 * `BadRequestError` for a 400, `APIConnectionError`, an abort) pass through unchanged.
 *
 * `stream(request)` sends the same parameters through `client.messages.stream`: each `text_delta`
 * event is a `text-delta` part as it arrives; at the end the SDK's `finalMessage()` is read as
 * above (so `finish` carries exactly what `complete` would resolve to, and the same errors), its
 * tool calls come as `tool-call` parts just before `finish`. An abort ends the iteration with the
 * signal's reason, and nothing after it; errors of the call (a 400) pass through unchanged.
 *
 * @param options - `client`, and optionally `defaultModel`, `defaultMaxTokens`, `name`
 * @returns the provider
 * @throws AgentConfigError when an option is invalid (no client, `defaultMaxTokens: 0`, …)
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * const provider = anthropicProvider({ client: new Anthropic(), defaultModel: 'claude-sonnet-4-5' });
 * const { message, usage } = await provider.complete({
 *   model: '', systemPrompt: 'Be brief.', messages: [userMessage('What is 2+2?')],
 * });
 * ```
 */
export const anthropicProvider = (options: AnthropicProviderOptions): Provider => {
  const checked = checkOptions(options);
  const { client, defaultModel, defaultMaxTokens = ANTHROPIC_DEFAULT_MAX_TOKENS } = checked;
  const name = checked.name ?? 'anthropic';

  const settings = { client, name, defaultModel, defaultMaxTokens };
  const complete = async (request: CompletionRequest): Promise<CompletionResult> => {
    const reply: unknown = await client.messages.create(
      messagesParams(settings, request),
      request.signal === undefined ? undefined : { signal: request.signal },
    );
    return readReply(reply, name);
  };
  const stream = (request: CompletionRequest): AsyncIterable<CompletionStreamPart> =>
    streamMessages(settings, request);

  const target = 'anthropic' as const;
  return defaultModel === undefined
    ? { name, target, complete, stream }
    : { name, target, defaultModel, complete, stream };
};
