import { generateText, type LanguageModel } from 'ai';
import { AgentConfigError } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
// Not yet exported from 'conversation-memory' (the lead will export the agent's types).
import type {
  CompletionRequest,
  CompletionResult,
  CompletionStreamPart,
  Provider,
} from 'conversation-memory';
import { readAdapterOptions } from '../shared/readAdapterOptions';
import { streamTextParts } from './streamTextParts';
import { toCompletionResult } from './toCompletionResult';
import { aiSdkPrompt } from './aiSdkPrompt';
import { toToolSet } from './toToolSet';

const API = 'aiSdkProvider';

/**
 * Options of {@link aiSdkProvider}.
 *
 * @example
 * ```ts
 * const options: AiSdkProviderOptions = { model: openai.chat('gpt-4o-mini'), name: 'openai-via-ai-sdk' };
 * ```
 */
export interface AiSdkProviderOptions {
  /** The AI SDK model every call goes to (`openai.chat('gpt-4o-mini')`, `anthropic('claude-…')`). */
  readonly model: LanguageModel;
  /** The provider's `defaultModel`; default: the model's own `modelId` (or the string given). */
  readonly defaultModelName?: string;
  /** The provider's `name`, for logs and errors; default `'ai-sdk'`. */
  readonly name?: string;
  /** Passed to `generateText` (its default is 2 retries of retryable errors). */
  readonly maxRetries?: number;
}

/** The options, read once and checked: the copy the provider uses. */
const checkOptions = (options: AiSdkProviderOptions): AiSdkProviderOptions => {
  // Read once: not an object, an unknown key, or options that cannot be read (with the cause).
  const given = readAdapterOptions(
    options,
    ['model', 'defaultModelName', 'name', 'maxRetries'],
    API,
    { example: '{ model }', error: AgentConfigError, required: true },
  );
  const { model, defaultModelName, name, maxRetries } = given as Partial<AiSdkProviderOptions>;
  if (
    model === undefined ||
    model === null ||
    (typeof model !== 'string' && typeof model !== 'object')
  ) {
    throw new AgentConfigError(
      API,
      `options.model must be an AI SDK LanguageModel, received ${describeValue(model)}`,
    );
  }
  for (const [key, value] of [
    ['defaultModelName', defaultModelName],
    ['name', name],
  ] as const) {
    if (value !== undefined && typeof value !== 'string') {
      throw new AgentConfigError(
        API,
        `options.${key} must be a string, received ${describeValue(value)}`,
      );
    }
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new AgentConfigError(
      API,
      `options.maxRetries must be a whole number ≥ 0, received ${describeValue(maxRetries)}`,
    );
  }
  return given as AiSdkProviderOptions;
};

/**
 * A {@link Provider} backed by a Vercel AI SDK `LanguageModel` (AI SDK 6): each `complete` is one
 * `generateText` call with the request's system prompt (`system`, left out when `''`), its
 * messages converted by {@link toModelMessages} (system messages such as the conversation summary
 * stay in `messages`, with `allowSystemInMessages: true`), `maxOutputTokens` from `maxTokens`,
 * the tools as `tool()`s with `jsonSchema()` input schemas and **no `execute`** (so the SDK hands
 * the calls back and the agent runs them), and the request's abort signal. The result's `text`,
 * `toolCalls` (with their ids) and `usage` become `{ message, usage }`.
 *
 * With `request.cache` (the agent's `config.cache`): for an Anthropic model, the view's
 * breakpoints as `providerOptions.anthropic.cacheControl` on their messages (and on the system
 * prompt when there is room: four in all), which `@ai-sdk/anthropic` sends as `cache_control`;
 * for an OpenAI model, the cache key as `providerOptions.openai.promptCacheKey`; for any other
 * model nothing more is sent (see `aiSdkPrompt`).
 *
 * `request.model` is not used to route the call: an AI SDK `LanguageModel` already names its
 * model, so every call goes to `options.model`, whatever model the agent's config names (the
 * summarizer's `summarizeModel` included; give the agent a second provider to summarize with
 * another model). The provider's `defaultModel` is `defaultModelName`, else the model's
 * `modelId`, so an agent without `config.model` reports the model actually used.
 *
 * Errors of the call itself are the SDK's own, passed through unchanged: a provider's HTTP 400
 * rejects with the SDK's `APICallError`, whose `message` is the provider's error text (the SDK
 * retries only retryable errors). The SDK itself refuses, before any request, a transcript with
 * a tool call that has no result (`AI_MissingToolResultsError`); `validateTranscript` finds both
 * kinds beforehand. An unusable reply rejects with `ProviderResponseError`; a message the AI SDK
 * cannot express (a tool call without id) with `MemoryArgumentError`.
 *
 * `stream(request)` is one `streamText` call with the same arguments: its `fullStream`'s
 * `text-delta` parts as they arrive; at the end its `text`, `toolCalls` and `usage`, read as
 * `complete` reads `generateText`'s (so `finish` carries what `complete` would resolve to), the
 * tool calls as `tool-call` parts just before `finish`. An `error` part ends the iteration with
 * the SDK's error, unchanged; an abort ends it with the signal's reason, and nothing after it.
 *
 * @param options - `model`, and optionally `defaultModelName`, `name`, `maxRetries`
 * @returns a provider the agent can use, shareable by many agents
 * @throws {AgentConfigError} for invalid options (as the other provider factories)
 * @example
 * ```ts
 * import { createOpenAI } from '@ai-sdk/openai';
 * const provider = aiSdkProvider({ model: createOpenAI({ apiKey })('gpt-4o-mini') });
 * const { message, usage } = await provider.complete({
 *   model: 'gpt-4o-mini', systemPrompt: 'Be brief.', messages: [userMessage('Hi')],
 * });
 * ```
 */
export const aiSdkProvider = (options: AiSdkProviderOptions): Provider => {
  const checked = checkOptions(options);
  const { model, maxRetries } = checked;
  const modelName = checked.defaultModelName ?? (typeof model === 'string' ? model : model.modelId);
  const complete = async (request: CompletionRequest): Promise<CompletionResult> => {
    const tools = toToolSet(request.tools);
    const result = await generateText({
      model,
      ...aiSdkPrompt(model, request),
      ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
      ...(tools === undefined ? {} : { tools }),
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
      ...(maxRetries === undefined ? {} : { maxRetries }),
    });
    return toCompletionResult(result);
  };
  // The model view meets the rules of the provider behind the model (`anthropic.messages`, …).
  const providerId = typeof model === 'string' ? model : model.provider;
  const target = /^anthropic\b/i.test(providerId) ? ('anthropic' as const) : ('openai' as const);
  const stream = (request: CompletionRequest): AsyncIterable<CompletionStreamPart> =>
    streamTextParts(model, maxRetries, request);
  return { name: checked.name ?? 'ai-sdk', target, defaultModel: modelName, complete, stream };
};
