import type { Message } from '../model/message';
import { normalizeMessage } from './normalizeMessage';
import { listItem, listLength } from './readList';

/**
 * A caller's list of messages, read once and validated as `addMessage` validates a message: each
 * entry in its canonical form (a canonical message is returned as it is). What the request
 * converters (`toOpenAIChat`, `toAnthropic`, the AI SDK's `toModelMessages`) read first, so that
 * they refuse the same bad input the same way.
 *
 * @param messages - the caller's list
 * @param api - the public function name, for the error
 * @returns the canonical messages, in order
 * @throws InvalidMessageError when `messages` is not an array, or an entry is not a valid message
 *   (naming the index, the field and the value), or could not be read
 * @example
 * ```ts
 * readMessages([{ role: 'user', content: 'hi' }], 'toModelMessages'); // [userMessage('hi')]
 * readMessages([{ role: 'USER' }], 'toModelMessages'); // throws InvalidMessageError (messages[0].role)
 * ```
 * @internal
 */
export const readMessages = (messages: unknown, api: string): Message[] => {
  const length = listLength(messages, api);
  const out = new Array<Message>(length);
  for (let i = 0; i < length; i++) {
    out[i] = normalizeMessage(listItem(messages as readonly unknown[], i, api), api, i);
  }
  return out;
};
