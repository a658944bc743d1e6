import { SpanKind, type Span, type Tracer } from '@opentelemetry/api';
import { CONVERSATION_MEMORY, GEN_AI } from './genAiAttributes';
import type { ToolEndInfo as ToolEnd, ToolStartInfo as ToolStart } from 'conversation-memory';
import { recordFailure } from './recordFailure';
import { toolValueJson } from './semconvMessages';

/**
 * Starts the span of a tool call: `execute_tool {toolName}`, kind `INTERNAL`, with
 * `gen_ai.operation.name` `'execute_tool'`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.type` `'function'` (the agent runs it in process), the run id, and with
 * `recordContent` the arguments as `gen_ai.tool.call.arguments`.
 *
 * @example
 * ```ts
 * const span = startToolCallSpan(tracer, 'run-1', tool, false);
 * ```
 */
export const startToolCallSpan = (
  tracer: Tracer,
  runId: string,
  tool: ToolStart,
  recordContent: boolean,
): Span =>
  tracer.startSpan(`execute_tool ${tool.toolName}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: tool.toolName,
      [GEN_AI.toolCallId]: tool.toolCallId,
      [GEN_AI.toolType]: 'function',
      [CONVERSATION_MEMORY.runId]: runId,
      ...(recordContent ? { [GEN_AI.toolCallArguments]: toolValueJson(tool.input) } : {}),
    },
  });

/**
 * Ends a tool call's span. When `error` is set (the tool threw or rejected, or was unknown) the
 * span is failed (status `ERROR`, `error.type`, the exception recorded: its type only, its
 * message and stack too with `recordContent`); otherwise, with
 * `recordContent`, the result the model sees is `gen_ai.tool.call.result` (the conventions
 * record a result only when the call succeeded).
 *
 * @example
 * ```ts
 * endToolCallSpan(span, tool, false);
 * ```
 */
export const endToolCallSpan = (span: Span, tool: ToolEnd, recordContent: boolean): void => {
  if (tool.error !== undefined) recordFailure(span, tool.error, recordContent);
  else if (recordContent) span.setAttribute(GEN_AI.toolCallResult, toolValueJson(tool.output));
  span.end();
};
