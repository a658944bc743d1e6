import { either as E } from 'fp-ts';
import type { MemoryDecodeError } from '../errors/memoryErrors';
import { registerCanonical } from '../internal/normalizeMessage';
import type { ContentPart, Message, ToolCall } from '../model/message';
import { ProblemBudget } from './budget';
import type { ImageData } from './imageData';
import {
  type DecodedModelMessage,
  type ModelPart,
  modelMessagesCodec,
  type ModelToolResult,
} from './modelMessageCodec';
import { codecFailure, publicDecode } from './publicDecoder';

const API = 'fromModelMessages';

const imagePart = (data: ImageData, mediaType: string | undefined): ContentPart => {
  const media = mediaType ?? (data.kind === 'base64' ? data.mediaType : undefined);
  const typed = media === undefined ? {} : { mediaType: media };
  return data.kind === 'url'
    ? { type: 'image_url', imageUrl: data.url, ...typed }
    : { type: 'image_base64', imageBase64: data.base64, ...typed };
};

const toContentPart = (part: ModelPart): ContentPart[] => {
  if (part.type === 'text') return [{ type: 'text', text: part.text }];
  if (part.type === 'image') return [imagePart(part.image, part.mediaType)];
  if (part.type === 'file') return [imagePart(part.data, part.mediaType)];
  return [];
};

const textOf = (parts: readonly ModelPart[], separator: string): string | undefined => {
  const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return texts.length === 0 ? undefined : texts.join(separator);
};

/** A user message: one text part is plain content; otherwise the parts, with their text. */
const userMessage = (content: string | readonly ModelPart[]): Message => {
  if (typeof content === 'string') return { role: 'user', content };
  const only = content.length === 1 ? content[0] : undefined;
  if (only?.type === 'text') return { role: 'user', content: only.text };
  const contentParts = content.flatMap(toContentPart);
  const text = textOf(content, '\n') ?? '';
  return contentParts.length === 0
    ? { role: 'user', content: text }
    : { role: 'user', content: text, contentParts };
};

/** An assistant message: text parts joined (as the AI SDK joins them), tool calls; no reasoning. */
const assistantMessage = (content: string | readonly ModelPart[]): Message => {
  if (typeof content === 'string') return { role: 'assistant', content };
  const toolCalls: ToolCall[] = content.flatMap((part) =>
    part.type === 'tool-call'
      ? [{ id: part.toolCallId, name: part.toolName, parameters: part.input }]
      : [],
  );
  const text = textOf(content, '') ?? (toolCalls.length > 0 ? null : '');
  return toolCalls.length === 0
    ? { role: 'assistant', content: text }
    : { role: 'assistant', content: text, toolCalls };
};

/** One tool message per result; the output as text (JSON outputs as their JSON text). */
const toolMessage = ({ toolCallId, toolName, output }: ModelToolResult): Message => {
  const content =
    output.type === 'execution-denied' ? (output.reason ?? 'Tool execution denied.') : output.value;
  return toolName === ''
    ? { role: 'tool', content, toolCallId }
    : { role: 'tool', content, toolCallId, toolName };
};

const toMessages = (message: DecodedModelMessage): Message[] => {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }];
    case 'user':
      return [userMessage(message.content)];
    case 'assistant':
      return [assistantMessage(message.content)];
    case 'tool':
      return message.content.map(toolMessage);
  }
};

/**
 * Decodes a list of Vercel AI SDK `ModelMessage`s (AI SDK 6: what `generateText`'s
 * `response.messages` holds, or what an app keeps) into our messages. The input is untrusted:
 * only own properties are read, each once, and every problem is reported with its path
 * (`messages[2].content[0].input: expected a JSON object, got "{oops"`). Never throws.
 *
 * What is kept: system text; user text, image and image-file parts (`contentParts`, with the
 * texts joined by newlines as `content`; a single text part is plain `content`); assistant text
 * (parts joined), `tool-call` parts as `toolCalls` (`toolCallId` → `id`, `input` → `parameters`);
 * each `tool-result` part as its own tool message (`text`/`error-text` values as they are,
 * `json`/`error-json` values as JSON text, `execution-denied` as its reason). Dropped:
 * `reasoning` parts and `providerOptions`. Rejected: non-image files, assistant files, tool
 * approvals, `content` tool outputs.
 *
 * @param input - an array of model messages, from any source
 * @returns `Right(messages)` (frozen, canonical) or `Left(MemoryDecodeError)` listing the problems
 * @example
 * ```ts
 * decodeModelMessages([{ role: 'user', content: 'hi' }]); // Right([{ role: 'user', content: 'hi' }])
 * ```
 */
export const decodeModelMessages = (input: unknown): E.Either<MemoryDecodeError, Message[]> => {
  const budget = new ProblemBudget();
  // The input stands for the `messages` field, so its problems (and a throw) are named `messages…`.
  return publicDecode(
    API,
    () => {
      const decoded = modelMessagesCodec(budget).decode({ messages: input });
      if (E.isLeft(decoded)) return codecFailure(API, decoded.left, budget);
      const messages = (decoded.right.messages as readonly DecodedModelMessage[]).flatMap(
        toMessages,
      );
      return E.right(messages.map(registerCanonical));
    },
    'messages',
  );
};
