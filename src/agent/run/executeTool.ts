import { errorText } from '../../util/errorText';
import { toolMessage } from '../../messages/constructors';
import type { JsonValue, Message, ToolCall } from '../../model/message';
import type { AgentTool } from '../types';

/** A tool's return value as the tool message's content: strings as they are, others as JSON. */
const resultText = (name: string, value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json ?? String(value);
  } catch (error) {
    return `Error: tool "${name}" returned a value that cannot be written as JSON: ${errorText(error)}`;
  }
};

/**
 * Runs one tool call and returns its result message (answering the call by id). The tool gets a
 * mutable copy of the arguments, and the run's abort signal. An unknown tool,
 * a tool that throws or rejects, and a result that cannot be written as JSON all become a result
 * message with the error text: the model sees it, and the run goes on.
 *
 * @internal
 */
export const executeTool = async (
  tools: ReadonlyMap<string, AgentTool>,
  call: ToolCall,
  signal: AbortSignal | undefined,
): Promise<ToolOutcome> => {
  const origin = { toolCallId: call.id, toolName: call.name };
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const known = [...tools.keys()].map((name) => `"${name}"`).join(', ');
    const text = `Error: unknown tool "${call.name}"; available tools: ${known === '' ? 'none' : known}`;
    return { message: toolMessage(text, origin), error: new Error(text) };
  }
  let content: string;
  try {
    // A mutable copy: the parameters memory holds are frozen, and a tool may fill defaults in.
    const args = structuredClone(call.parameters) as { [key: string]: JsonValue };
    content = resultText(call.name, await tool.execute(args, { signal }));
  } catch (error) {
    content = `Error: tool "${call.name}" failed: ${errorText(error)}`;
    return { message: toolMessage(content, origin), error };
  }
  return { message: toolMessage(content, origin) };
};

/**
 * How a tool call ended: its result message, and the error when the tool threw, rejected or was
 * unknown (the message then carries the error text).
 *
 * @internal
 */
export interface ToolOutcome {
  readonly message: Message;
  readonly error?: unknown;
}
