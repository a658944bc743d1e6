import type { CompletionResult } from '../model/completion';
import type { JsonObject, Message } from '../model/message';
import type { CompletionCache } from '../model/promptCache';
import type { ViewTarget } from '../view/viewTypes';

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
  /**
   * Prompt caching (the agent's `config.cache`; or a view's `cache`, from
   * `modelView(state, { cache: true })`, with an optional `key`): `breakpoints` are indices in
   * `messages`; the Anthropic adapter sends them (and one on `systemPrompt`) as `cache_control`,
   * the OpenAI adapter sends `key` as `prompt_cache_key`. Absent: the request is sent as before.
   */
  readonly cache?: CompletionCache | undefined;
}

export type { CompletionUsage, CompletionResult } from '../model/completion';

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
  /**
   * Whose message rules the agent's model view must meet for this provider (see `modelView`):
   * `'openai'` (also the default when absent: the Chat Completions rules most custom providers
   * speak), `'anthropic'`, or `'none'`.
   */
  readonly target?: ViewTarget;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /**
   * Streams one model call (optional): text deltas as they arrive, each tool call once complete,
   * and last one `finish` part with the whole reply, exactly what `complete` would have resolved
   * to. The agent's `stream` uses it when present and falls back to `complete` (one delta) when
   * not. An aborted `signal` ends the iteration by throwing its reason.
   */
  stream?(request: CompletionRequest): AsyncIterable<CompletionStreamPart>;
}

/**
 * One part of a streamed model call, named as the Vercel AI SDK names its stream parts. A stream
 * yields any number of `text-delta` and `tool-call` parts, then exactly one `finish` part, last,
 * whose `result` is the complete reply (the text deltas joined are its text; the tool calls are
 * its calls, in order).
 *
 * @example
 * ```ts
 * const parts: CompletionStreamPart[] = [
 *   { type: 'text-delta', text: 'Hel' },
 *   { type: 'text-delta', text: 'lo' },
 *   { type: 'finish', result: { message: assistantMessage('Hello') } },
 * ];
 * ```
 */
export type CompletionStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: JsonObject;
    }
  | { readonly type: 'finish'; readonly result: CompletionResult };
