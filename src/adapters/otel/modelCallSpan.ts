import { SpanKind, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { CONVERSATION_MEMORY, GEN_AI } from './genAiAttributes';
import type {
  ModelCallInfo as ModelCall,
  ModelErrorInfo as ModelFailure,
  ModelResultInfo as ModelResult,
} from 'conversation-memory';
import { recordFailure } from './recordFailure';
import {
  inputMessagesJson,
  outputMessagesJson,
  systemInstructionsJson,
  toolDefinitionsJson,
} from './semconvMessages';

/**
 * The attributes known when a model call starts, all given at span creation (the conventions
 * ask for the operation, provider and model then, for sampling): `gen_ai.operation.name`
 * `'chat'`, `gen_ai.provider.name` (the provider's `name`), `gen_ai.request.model` (unless
 * empty), `gen_ai.request.max_tokens` when set, `gen_ai.request.stream` when streaming, the run
 * id, the call's kind and iteration; with `recordContent`, the system prompt, the messages and
 * the tool definitions as the conventions' JSON.
 *
 * @example
 * ```ts
 * modelCallAttributes('run-1', call, false)['gen_ai.operation.name']; // 'chat'
 * ```
 */
export const modelCallAttributes = (
  runId: string,
  call: ModelCall,
  recordContent: boolean,
): Attributes => ({
  [GEN_AI.operationName]: 'chat',
  [GEN_AI.providerName]: call.provider,
  ...(call.model !== '' ? { [GEN_AI.requestModel]: call.model } : {}),
  ...(call.maxTokens !== undefined ? { [GEN_AI.requestMaxTokens]: call.maxTokens } : {}),
  ...(call.streaming ? { [GEN_AI.requestStream]: true } : {}),
  [CONVERSATION_MEMORY.runId]: runId,
  [CONVERSATION_MEMORY.modelCallKind]: call.kind,
  [CONVERSATION_MEMORY.modelCallIteration]: call.iteration,
  ...(recordContent
    ? {
        ...(call.systemPrompt !== ''
          ? { [GEN_AI.systemInstructions]: systemInstructionsJson(call.systemPrompt) }
          : {}),
        [GEN_AI.inputMessages]: inputMessagesJson(call.messages),
        ...(call.tools.length > 0
          ? { [GEN_AI.toolDefinitions]: toolDefinitionsJson(call.tools) }
          : {}),
      }
    : {}),
});

/**
 * Starts the span of a model call: `chat {model}` (`chat` when the model is empty), kind
 * `CLIENT`, under the active context's span if any.
 *
 * @example
 * ```ts
 * const span = startModelCallSpan(tracer, 'run-1', call, false);
 * ```
 */
export const startModelCallSpan = (
  tracer: Tracer,
  runId: string,
  call: ModelCall,
  recordContent: boolean,
): Span =>
  tracer.startSpan(call.model !== '' ? `chat ${call.model}` : 'chat', {
    kind: SpanKind.CLIENT,
    attributes: modelCallAttributes(runId, call, recordContent),
  });

/**
 * Ends a model call's span with its reply: `gen_ai.usage.input_tokens` and `.output_tokens`
 * when the provider reported usage, `gen_ai.usage.cache_read.input_tokens` and
 * `gen_ai.usage.cache_creation.input_tokens` when it reported cache reads and writes (parts of
 * the input tokens, as the conventions and `CompletionUsage` count them), and with `recordContent` the reply as
 * `gen_ai.output.messages`. The status stays unset, which means success (the conventions'
 * "Recording errors" sets a status only on failure).
 *
 * @example
 * ```ts
 * endModelCallSpan(span, result, false);
 * ```
 */
export const endModelCallSpan = (span: Span, result: ModelResult, recordContent: boolean): void => {
  if (result.usage !== undefined) {
    span.setAttribute(GEN_AI.usageInputTokens, result.usage.inputTokens);
    span.setAttribute(GEN_AI.usageOutputTokens, result.usage.outputTokens);
    const { cachedInputTokens, cacheWriteTokens } = result.usage;
    if (cachedInputTokens !== undefined) {
      span.setAttribute(GEN_AI.usageCacheReadInputTokens, cachedInputTokens);
    }
    if (cacheWriteTokens !== undefined) {
      span.setAttribute(GEN_AI.usageCacheCreationInputTokens, cacheWriteTokens);
    }
  }
  if (recordContent) span.setAttribute(GEN_AI.outputMessages, outputMessagesJson(result.message));
  span.end();
};

/**
 * Ends a model call's span as failed: status `ERROR`, `error.type`, the exception recorded (its
 * type only; its message and stack too with `recordContent`).
 *
 * @example
 * ```ts
 * failModelCallSpan(span, failure, false);
 * ```
 */
export const failModelCallSpan = (
  span: Span,
  failure: ModelFailure,
  recordContent: boolean,
): void => {
  recordFailure(span, failure.error, recordContent);
  span.end();
};
