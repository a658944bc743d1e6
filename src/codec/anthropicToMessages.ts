import type {
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
} from '../formats/anthropicTypes';
import { registerCanonical } from '../internal/normalizeMessage';
import type { ContentPart, Message, ToolCall } from '../model/message';
import type { DecodedBlock, DecodedToolResult } from './anthropicBlocks';

type MediaBlock = AnthropicTextBlock | AnthropicImageBlock;

/**
 * A decoded Anthropic message.
 *
 * @internal
 */
export interface DecodedMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly DecodedBlock[];
}

const part = (block: MediaBlock): ContentPart => {
  if (block.type === 'text') return { type: 'text', text: block.text };
  const { source } = block;
  return source.type === 'url'
    ? { type: 'image_url', imageUrl: source.url }
    : { type: 'image_base64', imageBase64: source.data, mediaType: source.media_type };
};

/**
 * The `content` (and `contentParts`) of text and image blocks: one text block is plain content;
 * no block is `''`; anything else keeps every block as a content part, with `content` the
 * non-empty texts joined with a space (what `messageText` reads).
 */
const contentOf = (blocks: readonly MediaBlock[]): Pick<Message, 'content' | 'contentParts'> => {
  const [only] = blocks;
  if (only === undefined) return { content: '' };
  if (blocks.length === 1 && only.type === 'text') return { content: only.text };
  const texts: string[] = [];
  for (const block of blocks)
    if (block.type === 'text' && block.text !== '') texts.push(block.text);
  return { content: texts.join(' '), contentParts: blocks.map(part) };
};

const message = (fields: Message): Message => registerCanonical(fields);

const assistant = (content: DecodedMessage['content']): Message => {
  if (typeof content === 'string') return message({ role: 'assistant', content });
  const media: MediaBlock[] = [];
  const calls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === 'tool_use') {
      calls.push({ id: block.id, name: block.name, parameters: block.input });
    } else if (block.type !== 'tool_result') {
      media.push(block);
    }
  }
  if (calls.length === 0) return message({ role: 'assistant', ...contentOf(media) });
  // A tool-call message without text reads as `content: null`, as providers return it.
  const text = media.length === 0 ? { content: null } : contentOf(media);
  return message({ role: 'assistant', ...text, toolCalls: calls });
};

const toolResult = (block: DecodedToolResult, names: ReadonlyMap<string, string>): Message => {
  const { content } = block;
  const body =
    content === undefined
      ? { content: '' }
      : typeof content === 'string'
        ? { content }
        : contentOf(content);
  const name = names.get(block.tool_use_id);
  return message({
    role: 'tool',
    ...body,
    toolCallId: block.tool_use_id,
    ...(name === undefined ? {} : { toolName: name }),
  });
};

/** Splits a user message into user messages and one tool message per `tool_result`, in order. */
const user = (
  content: DecodedMessage['content'],
  names: ReadonlyMap<string, string>,
  out: Message[],
): void => {
  if (typeof content === 'string' || content.length === 0) {
    out.push(message({ role: 'user', content: typeof content === 'string' ? content : '' }));
    return;
  }
  let pending: MediaBlock[] = [];
  const flush = (): void => {
    if (pending.length > 0) out.push(message({ role: 'user', ...contentOf(pending) }));
    pending = [];
  };
  for (const block of content) {
    if (block.type === 'tool_result') {
      flush();
      out.push(toolResult(block, names));
    } else if (block.type !== 'tool_use') {
      pending.push(block);
    }
  }
  flush();
};

/**
 * Converts a decoded Anthropic transcript to messages (see `fromAnthropic` for the rules).
 *
 * @internal
 */
export const anthropicToMessages = (
  system: string | readonly AnthropicTextBlock[] | undefined,
  messages: readonly DecodedMessage[],
): Message[] => {
  const out: Message[] = [];
  if (typeof system === 'string') {
    if (system !== '') out.push(message({ role: 'system', content: system }));
  } else if (system !== undefined) {
    for (const block of system) out.push(message({ role: 'system', content: block.text }));
  }
  /** The tool names of the nearest assistant message so far, by call id. */
  let names = new Map<string, string>();
  for (const { role, content } of messages) {
    if (role === 'user') {
      user(content, names, out);
      continue;
    }
    out.push(assistant(content));
    names = new Map(
      (typeof content === 'string' ? [] : content)
        .filter((block): block is AnthropicToolUseBlock => block.type === 'tool_use')
        .map((block) => [block.id, block.name]),
    );
  }
  return out;
};
