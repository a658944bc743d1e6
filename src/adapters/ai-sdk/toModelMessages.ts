import type {
  AssistantContent,
  ImagePart,
  ModelMessage,
  TextPart,
  ToolCallPart,
  UserContent,
} from 'ai';
import { MemoryArgumentError, type ContentPart, type Message } from 'conversation-memory';
import { describeValue } from 'conversation-memory/store-kit';
import { readMessages } from '../../library';

const API = 'toModelMessages';

const fail = (what: string): never => {
  throw new MemoryArgumentError(API, what);
};

/** One of our content parts as an AI SDK user part: text, or an image (URL or base64). */
const toPart = (part: ContentPart, path: string): TextPart | ImagePart => {
  const media = part.mediaType === undefined ? {} : { mediaType: part.mediaType };
  if (part.type === 'text') return { type: 'text', text: part.text ?? '' };
  if (part.type === 'image_url' && part.imageUrl !== undefined) {
    return { type: 'image', image: part.imageUrl, ...media };
  }
  if (part.type === 'image_base64' && part.imageBase64 !== undefined) {
    return { type: 'image', image: part.imageBase64, ...media };
  }
  return fail(
    `${path}: a part of type ${describeValue(part.type)} without its data has no AI SDK form; expected a text, image_url or image_base64 part`,
  );
};

/** Content parts (sent instead of `content` when present) and the reference's `imageBase64`. */
const userContent = (message: Message, path: string): UserContent => {
  const parts: (TextPart | ImagePart)[] =
    message.contentParts === undefined
      ? message.content
        ? [{ type: 'text', text: message.content }]
        : []
      : message.contentParts.map((part, i) => toPart(part, `${path}.contentParts[${i}]`));
  if (message.imageBase64 !== undefined) parts.push({ type: 'image', image: message.imageBase64 });
  return message.contentParts === undefined && message.imageBase64 === undefined
    ? (message.content ?? '')
    : parts;
};

const assistantContent = (message: Message, path: string): AssistantContent => {
  const texts = (message.contentParts ?? []).map((part, i) => {
    if (part.type !== 'text') {
      fail(`${path}.contentParts[${i}]: an assistant part must be text, received an image part`);
    }
    return part.text ?? '';
  });
  const text = message.contentParts === undefined ? (message.content ?? '') : texts.join('');
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return text;
  const callParts = calls.map((call, i): ToolCallPart => {
    if (call.id === undefined || call.id === '') {
      fail(
        `${path}.toolCalls[${i}] has no id: an AI SDK tool-call part needs a toolCallId (validateTranscript reports this as 'tool-call-without-id')`,
      );
    }
    return {
      type: 'tool-call',
      toolCallId: call.id ?? '',
      toolName: call.name,
      input: call.parameters,
    };
  });
  return text === '' ? callParts : [{ type: 'text', text }, ...callParts];
};

const toModelMessage = (message: Message, index: number): ModelMessage => {
  const path = `messages[${index}]`;
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content ?? '' };
    case 'user':
      return { role: 'user', content: userContent(message, path) };
    case 'assistant':
      return { role: 'assistant', content: assistantContent(message, path) };
    case 'tool': {
      const { toolCallId } = message;
      if (toolCallId === undefined || toolCallId === '') {
        return fail(
          `${path} is a tool result without toolCallId: an AI SDK tool-result part needs one (validateTranscript reports this as 'missing-tool-call-id')`,
        );
      }
      const output = { type: 'text' as const, value: message.content ?? '' };
      const part = {
        type: 'tool-result' as const,
        toolCallId,
        toolName: message.toolName ?? '',
        output,
      };
      return { role: 'tool', content: [part] };
    }
  }
};

/**
 * Converts our messages to the Vercel AI SDK's `ModelMessage`s (AI SDK 6), one for one, for
 * `generateText({ messages })` or `streamText`. Pure; the input is not changed.
 *
 * - `system` → a system message (`null` content as `''`);
 * - `user` → its text, or, when it has `contentParts` or `imageBase64`, text and `image` parts
 *   (an `image_url` part's URL, an `image_base64` part's data, with their media types);
 * - `assistant` → its text, or text (when not empty) followed by `tool-call` parts
 *   (`id` → `toolCallId`, `name` → `toolName`, `parameters` → `input`);
 * - `tool` → a tool message with one `tool-result` part (`output: { type: 'text', value }`).
 *
 * Not expressed: `thoughtSignature`, `toolResult`, and an assistant `content` of `''` versus
 * `null` beside tool calls (both send no text part).
 *
 * @param messages - our messages, oldest first
 * @returns the AI SDK messages, in the same order
 * The input is validated as `addMessage` validates it (as `toOpenAIChat` and `toAnthropic` do).
 *
 * @throws {InvalidMessageError} when `messages` is not an array, or an entry is not a valid
 *   message (a role other than the four, say), naming the index, the field and the value
 * @throws {MemoryArgumentError} for what has no AI SDK form: a tool call without `id`, a tool
 *   result without `toolCallId`, an image part without its data, an image in an assistant message
 * @example
 * ```ts
 * toModelMessages([
 *   userMessage('2+2?'),
 *   assistantMessage(null, [{ id: 'c1', name: 'calc', parameters: { expr: '2+2' } }]),
 *   toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
 * ]);
 * // [{ role: 'user', content: '2+2?' },
 * //  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'calc', input: { expr: '2+2' } }] },
 * //  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'calc', output: { type: 'text', value: '4' } }] }]
 * ```
 */
export const toModelMessages = (messages: readonly Message[]): ModelMessage[] =>
  readMessages(messages, API).map(toModelMessage);
