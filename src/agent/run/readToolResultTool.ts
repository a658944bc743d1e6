import type { JsonValue, Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { quoteText } from '../../util/escapeText';
import { READ_TOOL_RESULT } from '../../view/maskedToolResult';
import type { ToolSpec } from '../provider';
import type { AgentTool } from '../types';
import type { RunContext } from './context';

/**
 * The `read_tool_result` tool the agent offers when `config.maskToolResults` is on: the model
 * gives the call id a masked result names, and gets that result's content back.
 *
 * @example
 * ```ts
 * READ_TOOL_RESULT_TOOL.name; // 'read_tool_result'
 * ```
 */
export const READ_TOOL_RESULT_TOOL: ToolSpec = /* @__PURE__ */ Object.freeze({
  name: READ_TOOL_RESULT,
  description:
    'Read again the full output of an earlier tool call whose result is shown as ' +
    '"[tool result masked: …]". Give the call_id the masked result names.',
  parameters: /* @__PURE__ */ Object.freeze({
    type: 'object',
    properties: /* @__PURE__ */ Object.freeze({
      call_id: /* @__PURE__ */ Object.freeze({
        type: 'string',
        description: 'The call id of the tool result to read.',
      }),
    }),
    required: /* @__PURE__ */ Object.freeze(['call_id']),
  }),
});

/** The first tool result that answers `id` in `messages`, oldest first (the one a view sends). */
const resultFor = (messages: readonly Message[], id: string): Message | undefined =>
  messages.find((message) => message.role === 'tool' && message.toolCallId === id);

/**
 * The `read_tool_result` tool of one run: it looks the call id up in the run's transcript (the
 * history the run began with and every message of the run), then in the memory's window, and
 * answers the result's text as memory keeps it (`messageText`), or says that there is no such
 * result (the id quoted and escaped). Read only; never fails the run.
 *
 * @internal
 */
export const readToolResultTool = (context: RunContext): AgentTool => ({
  ...READ_TOOL_RESULT_TOOL,
  idempotent: true,
  execute: (args: Readonly<Record<string, JsonValue>>) => {
    const id = args['call_id'];
    if (typeof id !== 'string' || id === '') {
      return "Error: 'call_id' is required: the call id the masked tool result names.";
    }
    const found =
      resultFor(context.mask?.view?.messages() ?? [], id) ??
      resultFor(context.memory?.state.messages ?? [], id);
    if (found === undefined) return `No tool result with call id ${quoteText(id, 200)}.`;
    return messageText(found);
  },
});
