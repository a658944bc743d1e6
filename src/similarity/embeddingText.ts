import type { JsonValue, Message } from '../model/message';
import { messageText } from '../tokens/messageText';

/**
 * JSON with object keys sorted at every depth: two argument objects that differ only in key
 * order give the same text.
 *
 * @internal
 */
export const canonicalJson = (value: JsonValue | undefined): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as { readonly [key: string]: JsonValue };
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
};

/**
 * The text of a message that an embedder sees: its text (the text parts when it has them, else
 * `content`), then one line per tool call, `name {arguments}` with the argument keys sorted. A
 * network embedder is prepared with these texts before the messages are added.
 *
 * @param message - a message of the state
 * @returns the text its similarity is computed from
 * @example
 * ```ts
 * embeddingText(userMessage('Where is my order?')); // 'Where is my order?'
 * ```
 */
export const embeddingText = (message: Message): string => {
  const text = messageText(message);
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return text;
  const lines = calls.map((call) => `${call.name} ${canonicalJson(call.parameters)}`);
  return text === '' ? lines.join('\n') : `${text}\n${lines.join('\n')}`;
};
