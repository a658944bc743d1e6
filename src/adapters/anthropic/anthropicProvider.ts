import type Anthropic from '@anthropic-ai/sdk';
import {
  AgentConfigError,
  ANTHROPIC_SYSTEM_SEPARATOR,
  fromAnthropicReply,
  ProviderResponseError,
  toAnthropic,
  type CompletionRequest,
  type CompletionResult,
  type Provider,
  describeValue,
} from 'conversation-memory';

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

const checkOptions = (options: AnthropicProviderOptions): void => {
  const fail = (what: string): never => {
    throw new AgentConfigError(API, what);
  };
  if (typeof options !== 'object' || options === null) {
    fail(`options must be an object such as { client }, received ${describeValue(options)}`);
  }
  const { client, defaultModel, defaultMaxTokens, name } = options;
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
 * - the request's `signal`, passed to the client's request options.
 *
 * The reply becomes one assistant message (see `fromAnthropicReply`: text blocks joined, tool_use
 * blocks as tool calls with their ids, an empty reply as `content: ''`) and the usage
 * `{ inputTokens, outputTokens }`. A reply that is not a valid Message object rejects with a
 * `ProviderResponseError` naming the path and the value. Errors of the call itself (the SDK's
 * `BadRequestError` for a 400, `APIConnectionError`, an abort) pass through unchanged.
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
  checkOptions(options);
  const { client, defaultModel, defaultMaxTokens = ANTHROPIC_DEFAULT_MAX_TOKENS } = options;
  const name = options.name ?? 'anthropic';

  const complete = async (request: CompletionRequest): Promise<CompletionResult> => {
    const model = request.model !== '' ? request.model : defaultModel;
    if (model === undefined) {
      throw new AgentConfigError(
        API,
        `the request names no model and the provider has no defaultModel`,
      );
    }
    const transcript = toAnthropic(request.messages);
    const system = [request.systemPrompt, transcript.system ?? '']
      .filter((text) => text !== '')
      .join(ANTHROPIC_SYSTEM_SEPARATOR);
    const tools = request.tools ?? [];
    const params = {
      model,
      max_tokens: request.maxTokens ?? defaultMaxTokens,
      ...(system === '' ? {} : { system }),
      messages: transcript.messages,
      ...(tools.length === 0
        ? {}
        : {
            tools: tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.parameters,
            })),
          }),
    };
    const reply: unknown = await client.messages.create(
      // Our wire types are structurally what the API takes; the SDK's are narrower (mutable
      // arrays, the four image media types as literals), and the server judges the rest.
      params as unknown as Anthropic.MessageCreateParamsNonStreaming,
      request.signal === undefined ? undefined : { signal: request.signal },
    );
    const result = fromAnthropicReply(reply);
    if (result._tag === 'Left') {
      throw new ProviderResponseError(
        API,
        `provider ${describeValue(name)}: ${result.left.detail}`,
        {
          cause: result.left,
        },
      );
    }
    return result.right;
  };

  const target = 'anthropic' as const;
  return defaultModel === undefined
    ? { name, target, complete }
    : { name, target, defaultModel, complete };
};
