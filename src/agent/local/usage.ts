import { countMessageWith } from '../../tokens/messageText';
import type { Message } from '../../model/message';
import type { LocalRequest } from './readRequest';
import { charCount } from './text';

/**
 * The characters `LocalProvider` counts for a message: its text (`messageText`), plus each tool
 * call's name and its parameters as JSON, as the library's tokenizers count a message.
 *
 * @internal
 */
export const messageChars = (message: Message): number => countMessageWith(message, charCount);

/**
 * The characters of a whole request: the system prompt, every message ({@link messageChars}),
 * and each tool's name, description and parameters as JSON.
 *
 * @internal
 */
export const requestChars = (request: LocalRequest): number => {
  let total = charCount(request.systemPrompt);
  for (const message of request.messages) total += messageChars(message);
  for (const tool of request.tools) {
    total +=
      charCount(tool.name) +
      charCount(tool.description) +
      charCount(JSON.stringify(tool.parameters));
  }
  return total;
};
