import { MemoryArgumentError } from '../errors/errorClasses';
import { received } from '../internal/describeValue';
import type { Message } from '../model/message';
import { checkToolPairing } from './checkToolPairing';
import { checkTurns } from './checkTurns';
import type { TranscriptProvider, TranscriptViolation } from './transcriptRule';

/**
 * Checks a transcript against a provider's message rules before it is sent, and says which
 * messages the provider would reject and why, quoting the provider's own 400 text. The rules are
 * listed with {@link TranscriptRule}: tool results that answer no call of the assistant message
 * they follow, calls left unanswered (except an unfinished last turn: the last assistant
 * tool-call message followed only by some of its results), duplicate or missing ids, Anthropic's
 * user-first rule once system messages are lifted out, and empty content where the provider
 * forbids it.
 *
 * Pure and total: it never throws for an array of valid messages, and returns `[]` when the
 * provider would accept the transcript (an empty one included). Violations are ordered by index.
 *
 * @param messages - the transcript, oldest first, in our `Message` shape
 * @param provider - `'openai'` (Chat Completions) or `'anthropic'` (Messages)
 * @returns one violation per broken rule, each with the `index` in `messages` it points at
 * @throws {MemoryArgumentError} when `messages` is not an array or `provider` is not one of the two
 * @example
 * ```ts
 * validateTranscript(
 *   [userMessage('hi'), toolMessage('4', { toolCallId: 'c1', toolName: 'calc' })],
 *   'openai',
 * );
 * // [{ index: 1, rule: 'tool-result-without-call', message: 'messages[1] is a tool result … OpenAI answers 400: "Invalid parameter: messages with role \'tool\' must be a response to a preceeding message with \'tool_calls\'."' }]
 * ```
 */
export const validateTranscript = (
  messages: readonly Message[],
  provider: TranscriptProvider,
): TranscriptViolation[] => {
  if (!Array.isArray(messages)) {
    throw new MemoryArgumentError(
      'validateTranscript',
      `messages must be an array of messages, ${received(messages)}`,
    );
  }
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new MemoryArgumentError(
      'validateTranscript',
      `provider must be "openai" or "anthropic", ${received(provider)}`,
    );
  }
  const violations = [...checkToolPairing(messages, provider), ...checkTurns(messages, provider)];
  // Array.prototype.sort is stable: violations of one message keep the order they were found in.
  return violations.sort((a, b) => a.index - b.index);
};
