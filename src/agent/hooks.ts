import type { JsonObject, Message } from '../model/message';
import type { CompletionCache } from '../model/promptCache';
import type { CompletionUsage, ToolSpec } from './provider';

/**
 * What `onModelCall` receives: one model call as it is sent. `callId` is unique within the
 * agent's process (`onModelResult` and `onModelError` carry the same one); `kind` says whether it
 * is a main call of the run's loop, a summary call (summarize-on-trim) or an extraction call (entity
 * memory, knowledge graph).
 *
 * @example
 * ```ts
 * const observer: AgentObserver = {
 *   onModelCall: (runId, call) => console.log(runId, call.model, call.messages.length),
 * };
 * ```
 */
export interface ModelCallInfo {
  readonly callId: string;
  readonly kind: 'main' | 'summary' | 'extraction';
  /** The provider's `name`. */
  readonly provider: string;
  readonly model: string;
  readonly systemPrompt: string;
  /** The messages sent: for a main call, the model view. */
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  readonly maxTokens?: number;
  /** 1 for the run's first main call (summary calls carry the main call they precede or follow). */
  readonly iteration: number;
  /** Whether the call streams (`agent.stream` with a provider that has `stream`). */
  readonly streaming: boolean;
  /**
   * The request's prompt caching, as sent (`CompletionRequest.cache`): with the agent's `cache`
   * on, a main call's breakpoints (indices in `messages`), their `ttl`, and the cache `key` when
   * there is one. Absent when the request has none (summary and extraction calls, `cache` off).
   */
  readonly cache?: CompletionCache;
}

/**
 * What `onModelResult` receives: the reply of a model call, its usage when the provider reported
 * one, and the time from sending to the complete reply.
 *
 * @example
 * ```ts
 * const observer: AgentObserver = {
 *   onModelResult: (runId, result) => console.log(result.latencyMs, result.usage?.outputTokens),
 * };
 * ```
 */
export interface ModelResultInfo {
  readonly callId: string;
  readonly kind: 'main' | 'summary' | 'extraction';
  readonly provider: string;
  readonly model: string;
  readonly message: Message;
  readonly usage?: CompletionUsage;
  /** Milliseconds from the call to its complete reply. */
  readonly latencyMs: number;
  readonly iteration: number;
}

/**
 * What `onModelError` receives: a model call that rejected (a provider error, an abort, a reply
 * that is not a valid message).
 *
 * @example
 * ```ts
 * const observer: AgentObserver = { onModelError: (runId, failure) => console.error(failure.error) };
 * ```
 */
export interface ModelErrorInfo {
  readonly callId: string;
  readonly kind: 'main' | 'summary' | 'extraction';
  readonly provider: string;
  readonly model: string;
  readonly error: unknown;
  readonly latencyMs: number;
  readonly iteration: number;
}

/**
 * What `onToolStart` receives: a tool call about to run (`input` is a copy of the model's
 * arguments).
 *
 * @example
 * ```ts
 * const observer: AgentObserver = { onToolStart: (runId, tool) => console.log(tool.toolName, tool.input) };
 * ```
 */
export interface ToolStartInfo {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonObject;
}

/**
 * What `onToolEnd` receives: how a tool call ended. `output` is the result message's content
 * (what the model sees); `error` is set when the tool threw or rejected, or is unknown (the
 * model then sees the error text as `output`).
 *
 * @example
 * ```ts
 * const observer: AgentObserver = {
 *   onToolEnd: (runId, tool) => console.log(tool.toolName, tool.durationMs, tool.error ?? tool.output),
 * };
 * ```
 */
export interface ToolEndInfo {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: string;
  readonly error?: unknown;
  readonly durationMs: number;
}
