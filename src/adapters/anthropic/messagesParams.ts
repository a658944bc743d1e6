import type Anthropic from '@anthropic-ai/sdk';
import {
  AgentConfigError,
  fromAnthropicReply,
  ProviderResponseError,
  toAnthropic,
  type CompletionRequest,
  type CompletionResult,
} from 'conversation-memory';
import { ANTHROPIC_SYSTEM_SEPARATOR } from 'conversation-memory/constants';
import { describeValue } from 'conversation-memory/store-kit';

const API = 'anthropicProvider';

/** What a provider's calls need from its options. */
export interface MessagesSettings {
  readonly client: Anthropic;
  readonly name: string;
  readonly defaultModel: string | undefined;
  readonly defaultMaxTokens: number;
}

/**
 * The Messages API parameters of a request (see `anthropicProvider` for each field).
 *
 * @param settings - the provider's default model and `max_tokens`
 * @param request - the model call
 * @returns the parameters, without `stream`
 * @throws AgentConfigError when neither the request nor the provider names a model
 * @example
 * ```ts
 * messagesParams(settings, { model: 'claude-test', systemPrompt: '', messages: [userMessage('hi')] });
 * // { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }
 * ```
 * @internal
 */
export const messagesParams = (
  settings: MessagesSettings,
  request: CompletionRequest,
): Anthropic.MessageCreateParamsNonStreaming => {
  const model = request.model !== '' ? request.model : settings.defaultModel;
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
    max_tokens: request.maxTokens ?? settings.defaultMaxTokens,
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
  // Our wire types are structurally what the API takes; the SDK's are narrower (mutable arrays,
  // the four image media types as literals), and the server judges the rest.
  return params as unknown as Anthropic.MessageCreateParamsNonStreaming;
};

/**
 * A reply (a Message object) as a result, read by `fromAnthropicReply`.
 *
 * @param reply - what the client returned (or the stream's `finalMessage()`)
 * @param name - the provider's name, for the error
 * @returns the message and usage
 * @throws ProviderResponseError naming the path and the value when it is not a valid Message
 * @example
 * ```ts
 * readReply({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi' }], … }, 'anthropic');
 * ```
 * @internal
 */
export const readReply = (reply: unknown, name: string): CompletionResult => {
  const result = fromAnthropicReply(reply);
  if (result._tag === 'Left') {
    const { problems, problemCount } = result.left;
    throw new ProviderResponseError(API, `provider ${describeValue(name)}: ${result.left.detail}`, {
      cause: result.left,
      problems,
      problemCount,
    });
  }
  const { message, usage } = result.right;
  return usage === undefined ? { message } : { message, usage };
};
