import type { Message } from '../model/message';
import { hasAnthropicContent, isEmptyForOpenAI } from './messageContent';
import type { TranscriptProvider, TranscriptViolation } from './transcriptRule';
import { emptyContent, firstNotUser } from './transcriptTexts';

/** OpenAI's rule: an assistant message's content may be null only beside tool calls. */
const checkOpenAI = (messages: readonly Message[]): TranscriptViolation[] => {
  const violations: TranscriptViolation[] = [];
  messages.forEach((message, index) => {
    if (isEmptyForOpenAI(message)) {
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
