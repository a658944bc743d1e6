import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';

/**
 * What a message gives recall to search: its text, then each tool call's name and parameters (as
 * JSON). A tool result's text is its content; its call is found through the index.
 *
 * @internal
 */
export const searchableText = (message: Message): string => {
  const text = messageText(message);
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return text;
  const parts = [text];
  for (const call of calls) parts.push(call.name, JSON.stringify(call.parameters));
  return parts.join(' ');
};

/** Epoch milliseconds of years 1970 to 9999: a number outside is not read as a date. */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * The date a message was written, from `metadata.createdAt` (an ISO-8601 string, or epoch
 * milliseconds), as `YYYY-MM-DD HH:MM` in UTC; `undefined` when it has none or none that reads as
 * a date of the years 1970 to 9999.
 *
 * @internal
 */
export const messageDate = (message: Message): string | undefined => {
  const value = message.metadata?.['createdAt'];
  let ms: number;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && value.length <= 64) ms = Date.parse(value);
  else return undefined;
  if (!Number.isFinite(ms) || ms < 0 || ms > LAST_MS) return undefined;
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
};
