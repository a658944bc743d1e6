import type { Message } from '../model/message';

/**
 * The text of a message as a provider sees it (the reference's `text_content`): the `text` parts
 * joined with a space when the message has content parts with text, otherwise `content`, otherwise
 * `''`.
 *
 * @param message - any message
 * @returns the message's text
 * @example
 * ```ts
 * messageText({ role: 'user', content: 'fallback', contentParts: [{ type: 'text', text: 'hi' }] }); // 'hi'
 * ```
 */
export const messageText = (message: Message): string => {
  const parts = message.contentParts;
  if (parts !== undefined) {
    const texts: string[] = [];
    for (const part of parts) {
      if (part.type === 'text' && part.text !== undefined && part.text !== '')
        texts.push(part.text);
    }
    if (texts.length > 0) return texts.join(' ');
  }
  return message.content ?? '';
};

/**
 * Counts a message with a text tokenizer: its text ({@link messageText}), plus each tool call's
 * name and its parameters as JSON. Used for the gpt-tokenizer encodings.
 *
 * @param message - any message
 * @param countText - a text tokenizer
 * @returns the sum of the counts
 * @example
 * ```ts
 * countMessageWith(userMessage('hello world'), (t) => t.split(' ').length); // 2
 * ```
 */
export const countMessageWith = (message: Message, countText: (text: string) => number): number => {
  let total = countText(messageText(message));
  const calls = message.toolCalls;
  if (calls !== undefined) {
    for (const call of calls) {
      total += countText(call.name) + countText(JSON.stringify(call.parameters));
    }
  }
  return total;
};
