import { diag, trace, type Tracer } from '@opentelemetry/api';
import type { AgentObserver } from 'conversation-memory';
import type {
  ModelCallInfo as ModelCall,
  ModelErrorInfo as ModelFailure,
  ModelResultInfo as ModelResult,
  ToolEndInfo as ToolEnd,
  ToolStartInfo as ToolStart,
} from 'conversation-memory';
import { endModelCallSpan, failModelCallSpan, startModelCallSpan } from './modelCallSpan';
import { OpenSpans } from './openSpans';
import { readOtelOptions, type OtelObserverOptions } from './otelObserverOptions';
import { endToolCallSpan, startToolCallSpan } from './toolCallSpan';

/** The instrumentation scope of the default tracer. */
export const OTEL_TRACER_NAME = 'conversation-memory';

/** A tool call's key: its run and its id, injectively (`JSON.stringify` of the pair). */
const toolKey = (runId: string, toolCallId: string): string => JSON.stringify([runId, toolCallId]);

/**
 * Runs one hook, never throwing into the agent: a failure (a tracer or span processor that
 * throws, an info without the contract's fields) goes to OpenTelemetry's own diagnostic logger
 * (`diag.setLogger(...)` shows it), as OpenTelemetry instrumentations report theirs.
 */
const guarded =
  <A extends unknown[]>(event: string, handler: (...args: A) => void) =>
  (...args: A): void => {
    try {
      handler(...args);
    } catch (error) {
      diag.error(`conversation-memory otelObserver.${event} failed`, error);
    }
  };

/**
 * An agent observer that traces model and tool calls with OpenTelemetry, with the GenAI
 * semantic conventions' span names and attributes (semantic-conventions v1.41):
 *
 * - a model call (main or summary) is a span `chat {model}`, kind `CLIENT`, from `onModelCall`
 *   to `onModelResult` or `onModelError`, with `gen_ai.operation.name` `'chat'`,
 *   `gen_ai.provider.name`, `gen_ai.request.model`, `gen_ai.request.max_tokens`,
 *   `gen_ai.usage.input_tokens` / `.output_tokens`, `gen_ai.usage.cache_read.input_tokens` /
 *   `gen_ai.usage.cache_creation.input_tokens` (when the provider reported them), and `conversation_memory.run.id`,
 *   `conversation_memory.model_call.kind` (`'main'` / `'summary'`) and `.iteration`. A failed
 *   call's span has status `ERROR`, `error.type` and an `exception` event with the exception's
 *   type (its message and stack only with `recordContent`).
 * - a tool call is a span `execute_tool {toolName}`, kind `INTERNAL`, from `onToolStart` to
 *   `onToolEnd`, with `gen_ai.tool.name`, `gen_ai.tool.call.id` and the run id; failed when the
 *   tool threw, rejected or was unknown.
 *
 * Spans take the active context's span as parent (an `invoke_agent` span of your own around
 * `agent.run`, with a context manager registered, as the Node SDK does). There is no run span of
 * the observer's own: no hook reports a run's end. Message contents, and the text of errors
 * (which can quote them, or hold paths, SQL and keys), are recorded only with
 * `recordContent: true`. A start and its end are matched by `callId` (model) or run id and
 * `toolCallId` (tool); an end with no open start is ignored, and an ended span is forgotten.
 * The observer never throws into the agent (see the README's "Tracing with OpenTelemetry").
 *
 * @param options - `tracer` (default: the global provider's) and `recordContent` (default false)
 * @returns an observer for `createAgent({ observers: [...] })`
 * @throws AgentConfigError when an option has the wrong type
 * @example
 * ```ts
 * import { createAgent } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
 * import { otelObserver } from 'conversation-memory/otel';
 *
 * const agent = createAgent({ provider: new LocalProvider(), observers: [otelObserver()] });
 * ```
 */
export const otelObserver = (options?: OtelObserverOptions): AgentObserver => {
  const { tracer: given, recordContent } = readOtelOptions(options);
  const tracer = (): Tracer => given ?? trace.getTracer(OTEL_TRACER_NAME);
  const modelCalls = new OpenSpans();
  const toolCalls = new OpenSpans();
  return {
    onModelCall: guarded('onModelCall', (runId: string, call: ModelCall) => {
      modelCalls.open(call.callId, startModelCallSpan(tracer(), runId, call, recordContent));
    }),
    onModelResult: guarded('onModelResult', (_runId: string, result: ModelResult) => {
      const span = modelCalls.close(result.callId);
      if (span !== undefined) endModelCallSpan(span, result, recordContent);
    }),
    onModelError: guarded('onModelError', (_runId: string, failure: ModelFailure) => {
      const span = modelCalls.close(failure.callId);
      if (span !== undefined) failModelCallSpan(span, failure, recordContent);
    }),
    onToolStart: guarded('onToolStart', (runId: string, tool: ToolStart) => {
      toolCalls.open(
        toolKey(runId, tool.toolCallId),
        startToolCallSpan(tracer(), runId, tool, recordContent),
      );
    }),
    onToolEnd: guarded('onToolEnd', (runId: string, tool: ToolEnd) => {
      const span = toolCalls.close(toolKey(runId, tool.toolCallId));
      if (span !== undefined) endToolCallSpan(span, tool, recordContent);
    }),
  };
};
