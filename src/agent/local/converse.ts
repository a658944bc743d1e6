import type { Message } from '../../model/message';
import { messageText } from '../../tokens/messageText';
import { clip, plural, squash } from './text';

/**
 * The conversational rules of `LocalProvider` (rules 5 to 7 of its table): name memory and the
 * default reply, which show what the model was sent.
 */

/** The agent's summary message starts with this (it is a system message at index 0). */
export const SUMMARY_MESSAGE_START = '[Conversation Summary] ';

/** Names keep at most this many characters; quoted text in the default reply, 80. */
const NAME_CHARS = 40;
const QUOTE_CHARS = 80;

/**
 * `my name is X` or `the user's name is X` (any letter case for these words); X is a word of
 * letters, marks, digits, `'`, `’` or `-`, followed by at most two more words that start with a
 * capital letter (`Ada Lovelace`, but `Ada` in `my name is Ada and I like tea`).
 */
const NAME_STATEMENT =
  /(?:\b[Mm][Yy]|\b[Tt][Hh][Ee] [Uu][Ss][Ee][Rr]['’][Ss])\s+[Nn][Aa][Mm][Ee]\s+[Ii][Ss]\s+(\p{L}[\p{L}\p{M}\p{N}'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}\p{N}'’-]*){0,2})/gu;

/** `what's my name`, `what is my name`, `whats my name`, `do you know/remember my name`, `who am I`. */
const NAME_QUESTION =
  /\b(?:what(?:'s|’s|s|\s+is)\s+my\s+name|do\s+you\s+(?:know|remember)\s+my\s+name|who\s+am\s+i)\b/i;

/** The last name stated in `text`, or `undefined`. @internal */
export const statedName = (text: string): string | undefined => {
  let name: string | undefined;
  for (const match of text.matchAll(NAME_STATEMENT)) name = match[1];
  return name === undefined ? undefined : clip(name, NAME_CHARS);
};

/** Whether `text` asks for the user's name. @internal */
export const asksName = (text: string): boolean => NAME_QUESTION.test(text);

/**
 * The name most recently stated in a user or system message of `messages` (the summary message
 * included), searching from the newest message; `undefined` when none states one.
 *
 * @internal
 */
export const rememberedName = (messages: readonly Message[]): string | undefined => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || (message.role !== 'user' && message.role !== 'system')) continue;
    const name = statedName(messageText(message));
    if (name !== undefined) return name;
  }
  return undefined;
};

/** The reply to a question about the user's name. @internal */
export const answerName = (messages: readonly Message[]): string => {
  const name = rememberedName(messages);
  return name === undefined
    ? `I don't know your name yet. Tell me with "my name is …".`
    : `Your name is ${name}.`;
};

/** The text of the first system message that carries the agent's summary, or `undefined`. */
const summaryText = (messages: readonly Message[]): string | undefined => {
  for (const message of messages) {
    if (message.role !== 'system') continue;
    const text = messageText(message);
    if (text.startsWith(SUMMARY_MESSAGE_START)) return text.slice(SUMMARY_MESSAGE_START.length);
  }
  return undefined;
};

/**
 * The default reply: `You said: "TEXT". I can see N earlier messages.` (without the `You said`
 * part when the last message is not a user message), then ` Summary: SUMMARY` when a summary
 * message is present. TEXT and SUMMARY are squashed and clipped to 80 characters; N counts every message
 * before the last one, the summary message included.
 *
 * @internal
 */
export const defaultReply = (messages: readonly Message[]): string => {
  const last = messages[messages.length - 1];
  const said =
    last?.role === 'user' ? `You said: "${clip(squash(messageText(last)), QUOTE_CHARS)}". ` : '';
  const seen = `I can see ${plural(messages.length - 1, 'earlier message')}.`;
  const summary = summaryText(messages);
  const tail = summary === undefined ? '' : ` Summary: ${clip(squash(summary), QUOTE_CHARS)}`;
  return `${said}${seen}${tail}`;
};
