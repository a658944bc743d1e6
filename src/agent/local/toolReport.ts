import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { clip, endSentence, squash } from './text';

/**
 * The tool-result report of `LocalProvider` (rule 3 of its table): when the messages end with
 * tool results, one sentence per result.
 */

/** Each result's text is quoted up to this many characters. */
export const TOOL_RESULT_CHARS = 200;

/** A tool's name is quoted up to this many characters. */
const NAME_CHARS = 40;

/** The tool results at the end of `messages` (oldest first), and the message before them. */
const trailingResults = (
  messages: readonly Message[],
): { readonly results: readonly Message[]; readonly before: Message | undefined } => {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === 'tool') start--;
  return { results: messages.slice(start), before: messages[start - 1] };
};

/** Where a result's call sits in the calls of `before`, or past the end when it matches none. */
const callIndex = (result: Message, ids: readonly (string | undefined)[]): number => {
  const index = result.toolCallId === undefined ? -1 : ids.indexOf(result.toolCallId);
  return index < 0 ? ids.length : index;
};

/**
 * Reports the tool results that end `messages`: `NAME returned TEXT.` for each, in the order of the
 * calls they answer in the assistant message before them (matched by `toolCallId`; results that
 * match no call follow, in their own order), joined with a space. `NAME` is the result's
 * `toolName`, else its call's name, else `tool` (clipped to 40 characters); `TEXT` is its text
 * (`messageText`, else `toolResult`), white space squashed, clipped to
 * {@link TOOL_RESULT_CHARS} characters (`NAME returned nothing.` when blank).
 *
 * @param messages - the request's messages
 * @returns the report, or `undefined` when the last message is not a tool result
 * @internal
 */
export const reportToolResults = (messages: readonly Message[]): string | undefined => {
  const { results, before } = trailingResults(messages);
  if (results.length === 0) return undefined;
  const calls = before?.role === 'assistant' ? (before.toolCalls ?? []) : [];
  const ids = calls.map((call) => call.id);
  const ordered = results
    .map((result, order) => ({ result, order, index: callIndex(result, ids) }))
    .sort((a, b) => a.index - b.index || a.order - b.order);
  return ordered
    .map(({ result, index }) => {
      const name = clip(result.toolName ?? calls[index]?.name ?? 'tool', NAME_CHARS);
      const raw = messageText(result) || (result.toolResult ?? '');
      const text = clip(squash(raw), TOOL_RESULT_CHARS);
      return text === '' ? `${name} returned nothing.` : endSentence(`${name} returned ${text}`);
    })
    .join(' ');
};
