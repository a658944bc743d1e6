import { MemoryArgumentError } from '../errors/memoryErrors';
import { received } from '../util/describeValue';
import { unreadable } from '../internal/unreadable';
import type { Message } from '../model/message';
import { checkToolPairing } from './checkToolPairing';
import { checkTurns } from './checkTurns';
import type { TranscriptProvider, TranscriptViolation } from './transcriptRule';

const API = 'validateTranscript';

/**
 * Checks a transcript against a provider's message rules before it is sent, and says which
 * messages the provider would reject and why, quoting the provider's own 400 text. The rules are
 * listed with {@link TranscriptRule}: tool results that answer no call of the assistant message
 * they follow, calls left unanswered (in the middle or at the end: both providers refuse a
 * request that ends on calls without results, so a turn whose tools are still running is not a
 * request yet), duplicate or missing ids, Anthropic's user-first rule once system messages are
 * lifted out, and empty content where the provider forbids it. `modelView` builds a transcript
 * that passes from any memory, answering calls that have no result.
 *
 * Pure and total: it never throws for an array of valid messages, and returns `[]` when the
 * provider would accept the transcript. A transcript with no user or assistant message (empty,
 * or system messages only) is not a request yet and gets `[]` too, although a provider refuses a
 * request with no message: Anthropic once system messages are lifted out ("messages: at least one
 * message is required"), OpenAI when there is no system prompt either. Violations are ordered by
 * index.
 *
 * @param messages - the transcript, oldest first, in our `Message` shape
 * @param provider - `'openai'` (Chat Completions), `'anthropic'` (Messages), or `'none'`: only
 *   the tool-pairing rules every tool-calling API shares (what `modelView`'s `'none'` target
 *   meets), worded as OpenAI words them
 * @returns one violation per broken rule, each with the `index` in `messages` it points at
 * @throws {MemoryArgumentError} when `messages` is not an array of objects (or cannot be read: a
 *   revoked Proxy, a throwing getter) or `provider` is not one of the three
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
  provider: TranscriptProvider | 'none',
): TranscriptViolation[] => {
  const list = readTranscript(messages);
  if (provider !== 'openai' && provider !== 'anthropic' && provider !== 'none') {
    throw new MemoryArgumentError(
      API,
      `provider must be "openai", "anthropic" or "none", ${received(provider)}`,
    );
  }
  let violations: TranscriptViolation[];
  try {
    violations =
      provider === 'none'
        ? // The tool-pairing rules every API shares (as `modelView`'s 'none' target), in OpenAI's words.
          checkToolPairing(list, 'openai')
        : [...checkToolPairing(list, provider), ...checkTurns(list, provider)];
  } catch (error) {
    // A message whose getter throws, or a field that is not what a Message holds.
    throw unreadable(error, MemoryArgumentError, API, 'messages');
  }
  // Array.prototype.sort is stable: violations of one message keep the order they were found in.
  return violations.sort((a, b) => a.index - b.index);
};

/**
 * The caller's messages, read once each into a dense copy: an array of objects. A revoked Proxy,
 * a throwing getter, a hole (a sparse list is refused at its first hole, not walked to its length)
 * or an item that is not an object is a `MemoryArgumentError` naming where.
 */
const readTranscript = (messages: unknown): Message[] => {
  const list: Message[] = [];
  let where = 'messages';
  try {
    if (!Array.isArray(messages)) {
      throw new MemoryArgumentError(
        API,
        `messages must be an array of messages, ${received(messages)}`,
      );
    }
    const length = (messages as readonly unknown[]).length;
    for (let i = 0; i < length; i++) {
      where = `messages[${i}]`;
      const message: unknown = i in messages ? (messages as readonly unknown[])[i] : undefined;
      if (typeof message !== 'object' || message === null) {
        throw new MemoryArgumentError(
          API,
          `messages[${i}] must be a message object, ${received(message)}`,
        );
      }
      list.push(message as Message);
    }
  } catch (error) {
    throw unreadable(error, MemoryArgumentError, API, where);
  }
  return list;
};
