import { normalizeMessage } from '../../internal/normalizeMessage';
import type { Message } from '../../model/message';

/**
 * What the model view appends to a reply that was cut short (an assistant message marked
 * `metadata.interrupted: true`), with the agent's `config.markInterrupted` (on by default).
 *
 * @internal
 */
export const INTERRUPTED_REPLY_MARK = ' [interrupted]';

/** Whether `message` is a reply the agent kept when its stream was stopped. */
const isInterruptedReply = (message: Message): boolean =>
  message.role === 'assistant' && message.metadata?.['interrupted'] === true;

/**
 * The message as the model is sent it: its text, without white space at its end, followed by the
 * mark (`content`, or a last text part when it has content parts, which providers send instead of
 * `content`); a message with no text (tool calls only) as it is.
 */
const marked = (message: Message): Message => {
  const parts = message.contentParts;
  if (parts !== undefined && parts.length > 0) {
    return normalizeMessage(
      {
        ...message,
        contentParts: [...parts, { type: 'text', text: INTERRUPTED_REPLY_MARK.trimStart() }],
      },
      'agent.run',
    );
  }
  if (message.content === null || message.content === '') return message;
  // A reply cut after a word ends with its white space: the mark follows the word.
  const text = message.content.trimEnd();
  return normalizeMessage(
    {
      ...message,
      content:
        text === '' ? INTERRUPTED_REPLY_MARK.trimStart() : `${text}${INTERRUPTED_REPLY_MARK}`,
    },
    'agent.run',
  );
};

/**
 * The messages of a model view with each interrupted reply (an assistant message marked
 * `metadata.interrupted: true`: the text a user saw before the stream was stopped) ending in
 * {@link INTERRUPTED_REPLY_MARK} (after its last word), so the model knows the reply was cut short and not finished.
 * Memory keeps the reply as it was. The same list when there is none.
 *
 * @param messages - the view's messages
 * @returns the messages to send
 * @example
 * ```ts
 * markInterrupted([{ role: 'assistant', content: 'Nice to ', metadata: { interrupted: true } }])[0]
 *   .content; // 'Nice to [interrupted]'
 * ```
 * @internal
 */
export const markInterrupted = (messages: readonly Message[]): readonly Message[] => {
  let out: Message[] | undefined;
  messages.forEach((message, i) => {
    if (!isInterruptedReply(message)) return;
    const mark = marked(message);
    if (mark === message) return;
    out ??= messages.slice();
    out[i] = mark;
  });
  return out ?? messages;
};
