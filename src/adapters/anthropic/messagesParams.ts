import type Anthropic from '@anthropic-ai/sdk';
import {
  AgentConfigError,
  fromAnthropicReply,
  ProviderResponseError,
  toAnthropic,
  type AnthropicCacheControl,
  type AnthropicTextBlock,
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

/** The most `cache_control` blocks a request may have. */
const MAX_BREAKPOINTS = 4;

/**
 * `system` and `messages` of a request. Without `request.cache`: `system` is the system prompt
 * and the system messages' texts joined with a blank line. With it: `system` is text blocks (the
 * system prompt's first), the view's breakpoints are marked by `toAnthropic`, and the system
 * prompt's block is marked too when the breakpoints leave room (at most four in all).
 */
const transcriptOf = (
  request: CompletionRequest,
): { system: string | readonly AnthropicTextBlock[] | undefined; messages: unknown } => {
  const { cache } = request;
  if (cache === undefined) {
    const transcript = toAnthropic(request.messages);
    const system = [request.systemPrompt, transcript.system ?? '']
      .filter((text) => text !== '')
      .join(ANTHROPIC_SYSTEM_SEPARATOR);
    return { system: system === '' ? undefined : system, messages: transcript.messages };
  }
  const transcript = toAnthropic(request.messages, { cache });
  const blocks: AnthropicTextBlock[] = [];
  if (request.systemPrompt !== '') {
    const marked = cache.breakpoints.length < MAX_BREAKPOINTS;
    const control = cache.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
    blocks.push({
      type: 'text',
      text: request.systemPrompt,
      ...(marked ? { cache_control: control as AnthropicCacheControl } : {}),
    });
  }
  blocks.push(...(transcript.system ?? []));
  return { system: blocks.length === 0 ? undefined : blocks, messages: transcript.messages };
};

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
  const { system, messages } = transcriptOf(request);
  const tools = request.tools ?? [];
  const params = {
    model,
    max_tokens: request.maxTokens ?? settings.defaultMaxTokens,
    ...(system === undefined ? {} : { system }),
    messages,
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
