/**
 * The attribute names the observer writes: the OpenTelemetry GenAI semantic conventions' names
 * (semantic-conventions v1.41, `docs/gen-ai/gen-ai-spans.md`: `gen_ai.provider.name`,
 * which replaced `gen_ai.system` after v1.36; the cache counts
 * `gen_ai.usage.cache_read.input_tokens` and `gen_ai.usage.cache_creation.input_tokens`, each
 * "included in `gen_ai.usage.input_tokens`", as `@opentelemetry/semantic-conventions` 1.45's
 * `ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS` / `…_CACHE_CREATION_INPUT_TOKENS` name them),
 * `error.type`, and this library's own under `conversation_memory.`. Written out here so that the
 * semconv package is not a runtime dependency.
 *
 * @example
 * ```ts
 * span.setAttribute(GEN_AI.operationName, 'chat');
 * ```
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestStream: 'gen_ai.request.stream',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolDefinitions: 'gen_ai.tool.definitions',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/**
 * This library's own span attributes: the agent run a span belongs to, and for a model call,
 * whether it is a main call of the run's loop or a summary call, and its iteration.
 *
 * @example
 * ```ts
 * span.setAttribute(CONVERSATION_MEMORY.runId, runId);
 * ```
 */
export const CONVERSATION_MEMORY = {
  runId: 'conversation_memory.run.id',
  modelCallKind: 'conversation_memory.model_call.kind',
  modelCallIteration: 'conversation_memory.model_call.iteration',
} as const;
