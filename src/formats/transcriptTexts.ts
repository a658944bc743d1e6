import { escapeText, quoteText } from '../util/escapeText';
import type { TranscriptProvider } from './transcriptRule';

/**
 * The sentences of `validateTranscript`'s violations: what is wrong, in our terms, then the
 * provider's own 400 text (from its API; OpenAI's "preceeding" is its spelling). Ids come from
 * the caller's messages, so they are quoted, shortened and escaped.
 *
 * @internal
 */

const id = (value: string): string => quoteText(value, 60);
/** An id inside a quoted provider text: not quoted again, still shortened and escaped. */
const bare = (value: string): string => escapeText(value, 60);
/** At most 10 ids, then how many more: a message with a thousand calls gives a short line. */
const list = (values: readonly string[], show: (value: string) => string): string => {
  const shown = values.slice(0, 10).map(show).join(', ');
  return values.length > 10 ? `${shown} and ${values.length - 10} more` : shown;
};
const ids = (values: readonly string[]): string => list(values, id);
const bareList = (values: readonly string[]): string => list(values, bare);
const at = (index: number): string => `messages[${index}]`;

/** The provider's own text; positions in it (`messages.3`) are left out, since the request's differ. */
const by = (provider: TranscriptProvider, openai: string, anthropic: string): string =>
  provider === 'openai'
    ? `OpenAI answers 400: "${openai}"`
    : `Anthropic answers 400: "${anthropic}"`;

/** @internal */
export const resultWithoutCall = (
  provider: TranscriptProvider,
  index: number,
  callId: string,
  owner: number | undefined,
): string =>
  `${at(index)} is a tool result for call ${id(callId)}, but ${
    owner === undefined
      ? 'no assistant message with tool calls precedes it (only tool results may stand between a call and its results)'
      : `the assistant message it follows (${at(owner)}) has no tool call with that id`
  }; ${by(
    provider,
    owner === undefined
      ? "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
      : `Invalid parameter: 'tool_call_id' of '${bare(callId)}' not found in 'tool_calls' of previous message.`,
    `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${bare(callId)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
  )}`;

/** @internal */
export const callWithoutResult = (
  provider: TranscriptProvider,
  index: number,
  missing: readonly string[],
  next: number | undefined,
): string =>
  `${at(index)} requests tool call(s) ${ids(missing)} that no tool result answers ${
    next === undefined ? 'by the end of the transcript' : `before ${at(next)}`
  }; ${by(
    provider,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${bareList(missing)}`,
    `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${bareList(missing)}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  )}`;

/** @internal */
export const duplicateResult = (
  provider: TranscriptProvider,
  index: number,
  callId: string,
  first: number,
): string =>
  `${at(index)} answers call ${id(callId)} again (${at(first)} already did); ${by(
    provider,
    `Invalid parameter: Duplicate value for 'tool_call_id' of '${bare(callId)}', in messages[…] and messages[…].`,
    `each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${bare(callId)}`,
  )}`;

/** @internal */
export const duplicateCallId = (
  provider: TranscriptProvider,
  index: number,
  callId: string,
  first: number,
): string =>
  `${at(index)} has a tool call with id ${id(callId)}, which ${
    first === index ? 'another call of the same message' : `a call of ${at(first)}`
  } already uses, so its results are ambiguous; ${by(
    provider,
    `Invalid parameter: Duplicate value for 'tool_call_id' of '${bare(callId)}', …`,
    '`tool_use` ids must be unique',
  )}`;

/** @internal */
export const callWithoutId = (
  provider: TranscriptProvider,
  index: number,
  position: number,
): string =>
  `${at(index)}.toolCalls[${position}] has no id, so no tool result can answer it; ${by(
    provider,
    "Missing required parameter: 'messages[…].tool_calls[…].id'.",
    '…tool_use.id: Field required',
  )}`;

/** @internal */
export const resultWithoutId = (provider: TranscriptProvider, index: number): string =>
  `${at(index)} is a tool result without toolCallId, so it answers no call; ${by(
    provider,
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
    '…tool_result.tool_use_id: Field required',
  )}`;

/** @internal */
export const firstNotUser = (index: number, role: string): string =>
  `${at(index)} is the first message once system messages are lifted out, and its role is ${id(role)}, not a user turn; Anthropic answers 400: "messages: first message must use the "user" role"`;

/** @internal */
export const emptyContent = (provider: TranscriptProvider, index: number): string =>
  provider === 'openai'
    ? `${at(index)} is an assistant message whose content is null, with no tool calls and no content parts; OpenAI answers 400: "Invalid value for 'content': expected a string, got null."`
    : `${at(index)} converts to no content block (no non-whitespace text, no image, no tool call) and is not the final assistant message; Anthropic answers 400: "all messages must have non-empty content except for the optional final assistant message"`;
