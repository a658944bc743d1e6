import type { LanguageModel, ModelMessage, SystemModelMessage } from 'ai';
import type { CompletionRequest } from 'conversation-memory';
import { promptCacheKey } from '../openai/promptCacheKey';
import { toModelMessages } from './toModelMessages';

/** The most cache breakpoints an Anthropic request may have. */
const MAX_BREAKPOINTS = 4;

/** The provider behind an AI SDK model, as far as prompt caching goes. */
const cacheTargetOf = (model: LanguageModel): 'anthropic' | 'openai' | 'other' => {
  const providerId = typeof model === 'string' ? model : model.provider;
  if (/^anthropic\b/i.test(providerId)) return 'anthropic';
  return /^openai\b/i.test(providerId) ? 'openai' : 'other';
};

/** The prompt fields of a `generateText`/`streamText` call (see {@link aiSdkPrompt}). */
export interface AiSdkPrompt {
  readonly messages: ModelMessage[];
  readonly allowSystemInMessages: true;
  readonly system?: string | SystemModelMessage;
  readonly providerOptions?: { readonly openai: { readonly promptCacheKey: string } };
}

/**
 * The prompt of a request for `generateText`/`streamText`: the messages converted by
 * `toModelMessages` (system messages kept in place), and the system prompt (left out when `''`).
 * With `request.cache` (the agent's `config.cache`, or a view's `cache`):
 *
 * - an Anthropic model (`@ai-sdk/anthropic`, provider id `anthropic.*`): each message at
 *   `cache.breakpoints` gets `providerOptions.anthropic.cacheControl` `{ type: 'ephemeral' }`
 *   (with `ttl: '1h'` for the one-hour cache), which `@ai-sdk/anthropic` sends as
 *   `cache_control` on the message's last block; the system prompt becomes a system message
 *   marked the same way when the breakpoints leave room (four in all, the API's limit), as the
 *   `anthropicProvider` adapter does;
 * - an OpenAI model (`@ai-sdk/openai`, provider id `openai.*`): `cache.key`, when there is one,
 *   as `providerOptions.openai.promptCacheKey` (sent as `prompt_cache_key`, bounded to 64
 *   characters as `openaiProvider` bounds it; OpenAI caches prefixes by itself, so the
 *   breakpoints are not needed);
 * - any other model: nothing more is sent (the request is the one without `cache`).
 *
 * @param model - the AI SDK model the call goes to
 * @param request - the model call
 * @returns the fields to spread into the call
 * @example
 * ```ts
 * aiSdkPrompt(anthropic('claude-sonnet-4-5'), { ...request, cache: { ttl: '5m', breakpoints: [1] } }).messages[1];
 * // { role: 'user', content: 'Hi', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } }
 * ```
 * @internal
 */
export const aiSdkPrompt = (model: LanguageModel, request: CompletionRequest): AiSdkPrompt => {
  const messages = toModelMessages(request.messages);
  const { cache, systemPrompt } = request;
  const plain = {
    messages,
    allowSystemInMessages: true as const,
    ...(systemPrompt === '' ? {} : { system: systemPrompt }),
  };
  if (cache === undefined) return plain;
  const target = cacheTargetOf(model);
  if (target === 'openai') {
    return cache.key === undefined || cache.key === ''
      ? plain
      : { ...plain, providerOptions: { openai: { promptCacheKey: promptCacheKey(cache.key) } } };
  }
  if (target !== 'anthropic') return plain;
  const cacheControl =
    cache.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const marked = { anthropic: { cacheControl } };
  for (const index of cache.breakpoints) {
    const message = messages[index];
    if (message !== undefined) messages[index] = { ...message, providerOptions: marked };
  }
  if (systemPrompt === '') return plain;
  return {
    ...plain,
    system:
      cache.breakpoints.length < MAX_BREAKPOINTS
        ? { role: 'system', content: systemPrompt, providerOptions: marked }
        : systemPrompt,
  };
};
