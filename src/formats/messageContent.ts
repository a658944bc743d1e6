import type { ContentPart, Message } from '../model/message';

/** Text Anthropic accepts in a text block: at least one character that is not whitespace. */
const hasText = (text: string | null | undefined): boolean =>
  typeof text === 'string' && /\S/.test(text);

/** A part that converts to an Anthropic content block (text, image URL or base64 image). */
const partHasContent = (part: ContentPart): boolean =>
  part.type === 'text'
    ? hasText(part.text)
    : part.type === 'image_url'
      ? hasText(part.imageUrl)
      : part.type === 'image_base64' && hasText(part.imageBase64);

/**
 * Whether a user or assistant message converts to at least one Anthropic content block: a tool
 * call, an image, or non-whitespace text. When content parts are present they are sent instead
 * of `content`, so then only the parts count.
 *
 * @internal
 */
export const hasAnthropicContent = (message: Message): boolean => {
  if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true;
  if (hasText(message.imageBase64)) return true;
  const parts = message.contentParts ?? [];
  return parts.length > 0 ? parts.some(partHasContent) : hasText(message.content);
};

/**
 * OpenAI's rule: an assistant message's content may be null only beside tool calls or content
 * parts ("expected a string, got null").
 *
 * @internal
 */
export const isEmptyForOpenAI = (message: Message): boolean =>
  message.role === 'assistant' &&
  (message.content === null || message.content === undefined) &&
  (message.toolCalls?.length ?? 0) === 0 &&
  (message.contentParts?.length ?? 0) === 0;
