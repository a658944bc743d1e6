import type { ContentPart, Message } from '../model/message';
import type { TranscriptProvider, TranscriptViolation } from './transcriptRule';
import { emptyContent, firstNotUser } from './transcriptTexts';

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
 */
const hasAnthropicContent = (message: Message): boolean => {
  if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true;
  if (hasText(message.imageBase64)) return true;
  const parts = message.contentParts ?? [];
  return parts.length > 0 ? parts.some(partHasContent) : hasText(message.content);
};

/** OpenAI's rule: an assistant message's content may be null only beside tool calls. */
const checkOpenAI = (messages: readonly Message[]): TranscriptViolation[] => {
  const violations: TranscriptViolation[] = [];
  messages.forEach((message, index) => {
    if (
      message.role === 'assistant' &&
      (message.content === null || message.content === undefined) &&
      (message.toolCalls?.length ?? 0) === 0 &&
      (message.contentParts?.length ?? 0) === 0
    ) {
      violations.push({ index, rule: 'empty-content', message: emptyContent('openai', index) });
    }
  });
  return violations;
};

/**
 * Anthropic's turn rules, with system messages lifted out: the first message is a user turn (a
 * tool result is one), and every user or assistant message has content, except a final
 * assistant message. Consecutive turns of one role are merged by the API, so they are allowed.
 */
const checkAnthropic = (messages: readonly Message[]): TranscriptViolation[] => {
  const violations: TranscriptViolation[] = [];
  const turns = [...messages.keys()].filter((index) => messages[index]?.role !== 'system');
  const first = turns[0];
  const last = turns.at(-1);
  const firstMessage = first === undefined ? undefined : messages[first];
  if (first !== undefined && firstMessage?.role === 'assistant') {
    const message = firstNotUser(first, firstMessage.role);
    violations.push({ index: first, rule: 'first-message-not-user', message });
  }
  for (const index of turns) {
    const message = messages[index];
    if (message === undefined || message.role === 'tool') continue;
    if (message.role === 'assistant' && index === last) continue;
    if (!hasAnthropicContent(message)) {
      violations.push({ index, rule: 'empty-content', message: emptyContent('anthropic', index) });
    }
  }
  return violations;
};

/**
 * The turn and content rules of `validateTranscript` for one provider.
 *
 * @internal
 */
export const checkTurns = (
  messages: readonly Message[],
  provider: TranscriptProvider,
): TranscriptViolation[] =>
  provider === 'openai' ? checkOpenAI(messages) : checkAnthropic(messages);
