import { normalizeMessage } from '../../internal/normalizeMessage';
import type { Message, ToolCall } from '../../model/message';
import type { RunContext } from './context';
import { now } from './callModel';
import { executeTool } from './executeTool';
import { notify } from './notify';

/**
 * Runs one tool call with its hooks and stream events: `onToolStart`, the tool, `onToolEnd`
 * (output, error, duration), and a `tool-result` event. Returns the result message.
 *
 * @internal
 */
export const runTool = async (context: RunContext, call: ToolCall): Promise<Message> => {
  const { runId, observers, report } = context;
  const toolCallId = call.id ?? '';
  const input = structuredClone(call.parameters);
  await notify(
    observers,
    'onToolStart',
    [runId, { toolCallId, toolName: call.name, input }],
    runId,
    report,
  );
  const started = now();
  const outcome = await executeTool(context.tools, call, context.signal);
  const output = outcome.message.content ?? '';
  const ended = {
    toolCallId,
    toolName: call.name,
    output,
    durationMs: now() - started,
    ...('error' in outcome ? { error: outcome.error } : {}),
  };
  await notify(observers, 'onToolEnd', [runId, ended], runId, report);
  context.emit?.({
    type: 'tool-result',
    toolCallId,
    toolName: call.name,
    output,
    isError: 'error' in outcome,
  });
  // A run recorded for a UI (`messageId`) marks a failed tool's result, as the UI shows it.
  return context.messageId !== undefined && 'error' in outcome
    ? normalizeMessage(
        { ...outcome.message, metadata: { ...outcome.message.metadata, isError: true } },
        'agent.run',
      )
    : outcome.message;
};
