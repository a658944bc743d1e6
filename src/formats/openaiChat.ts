import { readMessages } from '../internal/readMessages';
import type { ContentPart, Message, ToolCall } from '../model/message';
import type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
} from './openaiChatTypes';

const API = 'toOpenAIChat';

/** The media type of a base64 image that names none: `image/jpeg`, as the reference defaults. */
export const DEFAULT_IMAGE_MEDIA_TYPE = 'image/jpeg';

const dataUrl = (base64: string, mediaType: string | undefined): string =>
  `data:${mediaType ?? DEFAULT_IMAGE_MEDIA_TYPE};base64,${base64}`;

/** One of our parts as an OpenAI part, or `undefined` when OpenAI has no place for it. */
const toPart = (part: ContentPart, images: boolean): OpenAIChatContentPart | undefined => {
  if (part.type === 'text') {
    return part.text === undefined ? undefined : { type: 'text', text: part.text };
  }
  if (!images) return undefined;
  if (part.type === 'image_url' && part.imageUrl !== undefined) {
    return { type: 'image_url', image_url: { url: part.imageUrl } };
  }
  if (part.type === 'image_base64' && part.imageBase64 !== undefined) {
    return { type: 'image_url', image_url: { url: dataUrl(part.imageBase64, part.mediaType) } };
  }
  return undefined;
};

/**
 * The content parts OpenAI can carry for this message: its `contentParts`, then its `imageBase64`
 * (after a text part holding `content` when no part was kept). Images only on user messages.
 */
const partsOf = (message: Message): OpenAIChatContentPart[] => {
  const images = message.role === 'user';
  const parts: OpenAIChatContentPart[] = [];
  for (const part of message.contentParts ?? []) {
    const converted = toPart(part, images);
    if (converted !== undefined) parts.push(converted);
  }
  if (images && message.imageBase64 !== undefined) {
    if (parts.length === 0 && message.content !== null && message.content !== '') {
      parts.push({ type: 'text', text: message.content });
    }
    parts.push({ type: 'image_url', image_url: { url: dataUrl(message.imageBase64, undefined) } });
  }
  return parts;
};

const toToolCall = (call: ToolCall): OpenAIChatToolCall => {
  const fn = { name: call.name, arguments: JSON.stringify(call.parameters) };
  return call.id === undefined
    ? { type: 'function', function: fn }
    : { id: call.id, type: 'function', function: fn };
};

const convert = (message: Message): OpenAIChatMessage => {
  const parts = partsOf(message);
  const text = message.content ?? '';
  switch (message.role) {
    case 'user':
      return { role: 'user', content: parts.length > 0 ? parts : text };
    case 'system':
      return { role: 'system', content: parts.length > 0 ? (parts as OpenAIChatTextPart[]) : text };
    case 'tool': {
      const content = parts.length > 0 ? (parts as OpenAIChatTextPart[]) : text;
      return message.toolCallId === undefined
        ? { role: 'tool', content }
        : { role: 'tool', tool_call_id: message.toolCallId, content };
    }
    case 'assistant': {
      const calls = message.toolCalls;
      if (calls === undefined) {
        return {
          role: 'assistant',
          content: parts.length > 0 ? (parts as OpenAIChatTextPart[]) : text,
        };
      }
      const content =
        parts.length > 0 ? (parts as OpenAIChatTextPart[]) : text === '' ? null : text;
      return { role: 'assistant', content, tool_calls: calls.map(toToolCall) };
    }
  }
};

/**
 * Converts messages to Chat Completions request messages (`client.chat.completions.create({
 * messages })`), in order, one for one. Pure; the input is validated as `addMessage` validates it
 * (each message's own fields read once) and never changed.
 *
 * How each field is written:
 * - `content` → `content`. OpenAI accepts `null` only on an assistant message with tool calls, so
 *   `null` elsewhere is sent as `''`; an assistant message with tool calls and `''` or `null`
 *   content is sent with `content: null`, as the API itself returns tool-call-only messages.
 * - `contentParts` (when present, sent instead of `content`): `text` parts as `text` parts;
 *   `image_url` parts and `image_base64` parts (as `data:<mediaType>;base64,…` URLs, media type
 *   default `image/jpeg`) as `image_url` parts, on user messages only (the only role OpenAI
 *   accepts images on). Parts of other types, or missing their `text`/`imageUrl`/`imageBase64`,
 *   are left out; when no part is left, `content` is sent.
 * - `imageBase64` on a user message: an extra `image_url` part (`data:image/jpeg;base64,…`) after
 *   the parts kept, or, when none was kept, after a text part holding `content` (if not empty).
 * - `toolCalls` on an assistant message → `tool_calls: [{ id, type: 'function', function: { name,
 *   arguments: JSON.stringify(parameters) } }]`. A call without an id is written without one, and
 *   the API refuses it (`Missing required parameter: 'messages[i].tool_calls[0].id'.`): check
 *   transcripts with `validateTranscript` first.
 * - `toolCallId` on a tool message → `tool_call_id` (left out when absent; the API requires it).
 *
 * OpenAI has no place for these, so they are not sent: `thoughtSignature` (Gemini's), `toolName`
 * and `toolResult` on tool results ({@link fromOpenAIChat} restores `toolName` from the call the
 * result answers), tool calls on non-assistant messages, `toolCallId` on non-tool messages, and
 * images on non-user messages.
 *
 * @param messages - messages in our shape, oldest first
 * @returns new Chat Completions messages, in the same order
 * @throws InvalidMessageError when an entry is not a valid message (naming the index and field)
 * @example
 * ```ts
 * toOpenAIChat([
 *   userMessage('Weather in Paris?'),
 *   { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', parameters: { city: 'Paris' } }] },
 *   { role: 'tool', content: '18°C', toolCallId: 'call_1', toolName: 'get_weather' },
 * ]);
 * // [{ role: 'user', content: 'Weather in Paris?' },
 * //  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function',
 * //    function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
 * //  { role: 'tool', tool_call_id: 'call_1', content: '18°C' }]
 * ```
 */
export const toOpenAIChat = (messages: readonly Message[]): OpenAIChatMessage[] =>
  readMessages(messages, API).map(convert);
