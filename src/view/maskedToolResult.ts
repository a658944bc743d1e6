import { normalizeMessage } from '../internal/normalizeMessage';
import type { Message } from '../model/message';
import { quoteText } from '../util/escapeText';

/**
 * The name of the tool that gives back a masked tool result by its call id (the agent offers it
 * when masking is on; see `createAgent`'s `config.maskToolResults`). Masked results name it.
 *
 * @internal
 */
export const READ_TOOL_RESULT = 'read_tool_result';

/** A tool name shown as it is when it is a plain identifier; anything else quoted and escaped. */
const PLAIN_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

const showName = (name: string): string => (PLAIN_NAME.test(name) ? name : quoteText(name, 64));

/** `{"call_id":"…"}`: the id as an escaped JSON string (cut past 200 characters). */
const callArgs = (id: string): string => `{"call_id":${quoteText(id, 200)}}`;

/**
 * The content a masked tool result is sent with (one line, short):
 *
 * - stale: `[tool result masked: read_file. To read it again, call read_tool_result with
 *   {"call_id":"call_7"}]`
 * - repeat: `[tool result masked: identical to the read_file result of {"call_id":"call_9"}
 *   below]`
 *
 * The tool name is shown as it is when it is a plain identifier (letters, digits, `_.:-`, at most
 * 64), else as an escaped, quoted string; the call id always as an escaped JSON string. So no
 * name or id can end the bracket, start a new line or reorder the text.
 *
 * @internal
 */
export const maskedText = (
  toolName: string | undefined,
  toolCallId: string,
  sameAs?: string,
): string => {
  const name = toolName === undefined || toolName === '' ? undefined : showName(toolName);
  if (sameAs !== undefined) {
    return `[tool result masked: identical to the ${name === undefined ? '' : `${name} `}result of ${callArgs(sameAs)} below]`;
  }
  return `[tool result masked${name === undefined ? '' : `: ${name}`}. To read it again, call ${READ_TOOL_RESULT} with ${callArgs(toolCallId)}]`;
};

/**
 * The tool message sent in place of `message`: the same role, `toolCallId`, `toolName` and `id`,
 * with {@link maskedText} as its content (no parts, no image, no `toolResult`) and
 * `metadata.masked: true`.
 *
 * @internal
 */
export const maskedToolResult = (message: Message, sameAs?: string): Message => {
  const { toolCallId = '', toolName, id } = message;
  return normalizeMessage(
    {
      role: 'tool',
      content: maskedText(toolName, toolCallId, sameAs),
      toolCallId,
      ...(toolName === undefined ? {} : { toolName }),
      ...(id === undefined ? {} : { id }),
      metadata: { masked: true },
    },
    'modelView',
  );
};
