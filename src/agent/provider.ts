import type { JsonObject, Message } from '../model/message';

/**
 * A tool as a provider sees it: a name, a description, and its parameters as a JSON Schema
 * object. The agent derives these from its tools; adapters translate them to the provider's
 * format.
 *
 * @example
 * ```ts
 * const spec: ToolSpec = {
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * ```
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object (`{ type: 'object', properties, required }`). */
  readonly parameters: JsonObject;
}

/**
 * One model call: what the agent asks a {@link Provider} for. `messages` are in our `Message`
 * shape, oldest first, and may begin with the injected `[Conversation Summary] …` system message;
 * `systemPrompt` is the agent's own instruction (`''` for none), kept apart from the messages as
 * the reference does.
 *
 * @example
 * ```ts
 * const request: CompletionRequest = {
 *   model: 'gpt-4o-mini',
 *   systemPrompt: 'You are helpful.',
 *   messages: [userMessage('hi')],
 *   maxTokens: 256,
 * };
 * ```
 */
export interface CompletionRequest {
  readonly model: string;
  readonly systemPrompt: string;
  readonly messages: readonly Message[];
  /** The most tokens the reply may have; the provider's default when absent. */
  readonly maxTokens?: number;
  /** The tools the model may call; none when absent or empty. */
  readonly tools?: readonly ToolSpec[];
  /** Aborts the call (passed through to the client's own request options). */
  readonly signal?: AbortSignal;
}

/**
 * Token usage a provider reported for one call.
 *
 * @example
 * ```ts
 * const usage: CompletionUsage = { inputTokens: 120, outputTokens: 35 };
 * ```
 */
export interface CompletionUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * A provider's answer: one assistant message (text, tool calls with ids, or both) and the usage
 * when the provider reports it.
 *
 * @example
 * ```ts
 * const result: CompletionResult = { message: assistantMessage('Hello!'), usage: { inputTokens: 9, outputTokens: 2 } };
 * ```
 */
export interface CompletionResult {
  readonly message: Message;
  readonly usage?: CompletionUsage;
}

/**
 * What the agent needs from a model: one asynchronous call. `LocalProvider` is a deterministic
 * offline one; `conversation-memory/openai`, `/anthropic` and `/ai-sdk` adapt the real clients.
 * A provider may be shared by many agents.
 *
 * @example
 * ```ts
 * const echo: Provider = {
 *   name: 'echo',
 *   complete: async ({ messages }) => ({ message: assistantMessage(messages.at(-1)?.content ?? '') }),
 * };
 * ```
 */
export interface Provider {
  /** A name for logs and error messages (`'openai'`, `'anthropic'`, `'local'`). */
  readonly name: string;
  /** The model used when the agent's config names none. */
  readonly defaultModel?: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}
