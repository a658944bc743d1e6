import type OpenAI from 'openai';
import {
  AgentConfigError,
  toOpenAIChat,
  type CompletionRequest,
  type ToolSpec,
} from 'conversation-memory';
import { promptCacheKey } from './promptCacheKey';

/** The parameters of one Chat Completions call, before `stream` is chosen. */
export type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

const toTool = (tool: ToolSpec): OpenAI.Chat.ChatCompletionFunctionTool => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
});

/**
 * The Chat Completions parameters for a request (see `openaiProvider` for each field).
 *
 * @param request - the model call
 * @param defaultModel - the model when the request's is `''`
 * @param api - the API name for errors (`openaiProvider.complete`, `openaiProvider.stream`)
 * @returns the parameters, without `stream`
 * @throws AgentConfigError when neither the request nor the provider names a model
 * @example
 * ```ts
 * chatParams({ model: '', systemPrompt: 'Be brief.', messages: [userMessage('Hi')] }, 'gpt-4o-mini', 'x');
 * // { model: 'gpt-4o-mini', messages: [{ role: 'system', … }, { role: 'user', content: 'Hi' }] }
 * ```
 * @internal
 */
export const chatParams = (
  request: CompletionRequest,
  defaultModel: string | undefined,
  api: string,
): ChatParams => {
  const model = request.model !== '' ? request.model : defaultModel;
  if (model === undefined) {
    throw new AgentConfigError(
      api,
      'request.model is empty and the provider has no defaultModel: name a model in the agent config or in openaiProvider({ defaultModel })',
    );
  }
  const messages = [
    ...(request.systemPrompt !== ''
      ? [{ role: 'system' as const, content: request.systemPrompt }]
      : []),
    // Structurally the client's types; a tool call or result without an id is sent without one
    // (the API answers with its own 400), which the client's types do not allow.
    ...(toOpenAIChat(request.messages) as OpenAI.Chat.ChatCompletionMessageParam[]),
  ];
  const params: ChatParams = { model, messages };
  if (request.maxTokens !== undefined) params.max_completion_tokens = request.maxTokens;
  if (request.tools !== undefined && request.tools.length > 0)
    params.tools = request.tools.map(toTool);
  // OpenAI caches prefixes by itself; the key routes the calls of one conversation together.
  const key = request.cache?.key;
  if (key !== undefined && key !== '') params.prompt_cache_key = promptCacheKey(key);
  return params;
};
