import { readMessages } from '../internal/readMessages';
import type { ContentPart, Message, ToolCall } from '../model/message';
import { messageText } from '../tokens/messageText';
import { markBlocks, readAnthropicCache, systemBlocks, type BlockPlace } from './anthropicCache';
import type { CacheBreakpoints } from '../model/promptCache';
import type {
  AnthropicCachedTranscript,
  AnthropicContentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicTranscript,
} from './anthropicTypes';
import { imageMediaType } from './imageMediaType';

const API = 'toAnthropic';

/** What joins the texts of several system messages into the one `system` string. */
export const ANTHROPIC_SYSTEM_SEPARATOR = '\n\n';

type MediaBlock = AnthropicTextBlock | AnthropicImageBlock;

const base64Image = (data: string, mediaType: string | undefined): AnthropicImageBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: mediaType ?? imageMediaType(data), data },
});

const partBlock = (part: ContentPart): MediaBlock | undefined => {
  if (part.type === 'text') {
    return part.text === undefined || part.text === ''
      ? undefined
      : { type: 'text', text: part.text };
  }
  if (part.type === 'image_url' && part.imageUrl !== undefined) {
    return { type: 'image', source: { type: 'url', url: part.imageUrl } };
  }
  if (part.type === 'image_base64' && part.imageBase64 !== undefined) {
    return base64Image(part.imageBase64, part.mediaType);
  }
  return undefined;
};

/**
 * The text and image blocks of a message: its content parts when it has some (else its non-empty
 * `content` as one text block), then its `imageBase64`.
 */
const mediaBlocks = (message: Message): MediaBlock[] => {
  const blocks: MediaBlock[] = [];
  if (message.contentParts !== undefined && message.contentParts.length > 0) {
    for (const part of message.contentParts) {
      const block = partBlock(part);
      if (block !== undefined) blocks.push(block);
    }
  } else if (message.content !== null && message.content !== '') {
    blocks.push({ type: 'text', text: message.content });
  }
  if (message.imageBase64 !== undefined) blocks.push(base64Image(message.imageBase64, undefined));
  return blocks;
};

/**
 * A lone text block is sent as a plain string (unless `asBlocks`), no blocks as `''`, anything
 * else as blocks.
 */
const compactContent = (blocks: MediaBlock[], asBlocks = false): string | MediaBlock[] => {
  if (blocks.length === 0) return '';
  const [only] = blocks;
  return !asBlocks && blocks.length === 1 && only?.type === 'text' ? only.text : blocks;
};

const toolUse = (call: ToolCall): AnthropicToolUseBlock => ({
  type: 'tool_use',
  id: call.id ?? '',
  name: call.name,
  input: call.parameters,
});

const toolResult = (message: Message): AnthropicToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: message.toolCallId ?? '',
  content: compactContent(mediaBlocks(message)),
});

const assistant = (message: Message, asBlocks: boolean): AnthropicMessage => {
  const blocks = mediaBlocks(message);
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: compactContent(blocks, asBlocks) };
  return { role: 'assistant', content: [...blocks, ...calls.map(toolUse)] };
};

/**
 * The options of {@link toAnthropic}.
 *
 * @example
 * ```ts
 * const options: ToAnthropicOptions = { cache: { ttl: '5m', breakpoints: [0, 2] } };
 * ```
 */
export interface ToAnthropicOptions {
  /**
   * Cache breakpoints (a view's `cache`, from `modelView(state, { cache: true })`): the last
   * block of each marked message gets `cache_control`, and `system` is sent as text blocks.
   */
  readonly cache?: CacheBreakpoints | undefined;
}

/**
 * Converts messages to the Anthropic Messages API's format: `{ system, messages }`, ready for
 * `client.messages.create({ model, max_tokens, system, messages })`. Pure; the result is new.
 *
 * - **System messages** are lifted out: their texts (as {@link messageText} reads them), in
 *   order, joined with a blank line ({@link ANTHROPIC_SYSTEM_SEPARATOR}), form `system`; system
 *   messages with no text are skipped; `system` is `undefined` when no text remains. Their
 *   position in the conversation is not kept: the API has no place for it.
 * - **Assistant tool calls** become `tool_use` blocks `{ type, id, name, input: parameters }`
 *   after the message's text block (a tool-call message with no text has only the `tool_use`
 *   blocks).
 * - **Tool results** become `tool_result` blocks `{ type, tool_use_id: toolCallId, content }` in
 *   a user message; consecutive results are merged into one user message, and a user message that
 *   directly follows them is merged into it, after the results (the API merges consecutive turns
 *   of one role, and wants the results first). Other consecutive user messages are left apart.
 * - **Images**: `contentParts` become text and image blocks in order (`image_url` as
 *   `{ type: 'url', url }`, `image_base64` as `{ type: 'base64', media_type, data }`); when a
 *   message has content parts, they are sent instead of `content`, as for every provider. A
 *   message's `imageBase64` becomes a base64 image block after its text. A missing media type is
 *   read from the image's first bytes ({@link imageMediaType}).
 * - **Content**: a message that is one text is sent as a string; with images or tool blocks, as
 *   blocks. Empty text is never sent as a block (the API rejects empty text blocks); a message
 *   left with nothing is sent as `''`, which the API rejects unless it is the final assistant
 *   message: no message is dropped or invented here, so the problem stays visible.
 *
 * What has no place in the format and is not sent: a tool result's `toolName` (Anthropic pairs
 * results by id alone; `fromAnthropic` recovers it from the call) and `toolResult`; a call's
 * `thoughtSignature`; tool calls on other roles than assistant, `toolCallId` and `toolName` on
 * other roles than tool; content parts of unknown types and text parts without text. A call
 * without `id` (or a result without `toolCallId`) is sent with `''`, which the API rejects:
 * providers always give ids.
 *
 * - **Cache breakpoints** (with `options.cache`, a view's `cache`): the last block a marked
 *   message became gets `cache_control: { type: 'ephemeral' }` (with `ttl: '1h'` for the
 *   one-hour cache): a marked system message's text block in `system`, which is then a list of
 *   text blocks, one per system text (always, with `cache`, so that the prefix is the same
 *   whether or not a system message is marked); a tool result's `tool_result` block (also when
 *   it shares a user message with other results); a user or assistant message's last block.
 *   With `cache`, every user and assistant content is sent as blocks (a lone text as one text
 *   block, marked or not), so a message is sent the same way whether or not it is marked and
 *   the prompt caches, which compare blocks, read the prefix the previous call wrote. A message
 *   that becomes no block (empty content) carries no mark. Without `cache`, the result is
 *   exactly as without options.
 *
 * The input is validated as `addMessage` validates it (each message's own fields read once, a
 * role other than `system`, `user`, `assistant` or `tool` refused, as `toOpenAIChat` does) and
 * never changed.
 *
 * @param messages - the conversation, oldest first
 * @returns `{ system, messages }` in the Anthropic format
 * @throws InvalidMessageError when `messages` is not an array, or an entry is not a valid message
 *   (naming the index, the field and the value)
 * @throws MemoryArgumentError for a wrong `options.cache` (a breakpoint that is not an index of
 *   `messages`, more than four, a `ttl` other than `'5m'` or `'1h'`)
 * @example
 * ```ts
 * toAnthropic([
 *   systemMessage('Be brief.'),
 *   userMessage('What is 2+2?'),
 *   assistantMessage(null, [{ id: 'toolu_1', name: 'calc', parameters: { expr: '2+2' } }]),
 *   toolMessage('4', { toolCallId: 'toolu_1', toolName: 'calc' }),
 * ]);
 * // { system: 'Be brief.', messages: [
 * //   { role: 'user', content: 'What is 2+2?' },
 * //   { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: { expr: '2+2' } }] },
 * //   { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4' }] },
 * // ] }
 * toAnthropic([systemMessage('Be brief.'), userMessage('Hi')], { cache: { ttl: '5m', breakpoints: [0, 1] } });
 * // { system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
 * //   messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }] }
 * ```
 */
export function toAnthropic(messages: readonly Message[]): AnthropicTranscript;
/**
 * {@link toAnthropic} with cache breakpoints: `system` as text blocks, `cache_control` on the
 * last block of each message at `options.cache.breakpoints`.
 *
 * @param messages - the conversation, oldest first
 * @param options - `cache`: the breakpoints to mark
 * @returns `{ system, messages }`, `system` as a list of text blocks
 * @example
 * ```ts
 * const view = modelView(state, { target: 'anthropic', cache: true });
 * const { system, messages } = toAnthropic(view.messages, { cache: view.cache! });
 * ```
 */
export function toAnthropic(
  messages: readonly Message[],
  options: { readonly cache: CacheBreakpoints },
): AnthropicCachedTranscript;
/**
 * {@link toAnthropic} with options that may hold cache breakpoints (a view's `cache`, which is
 * absent when the view was made without `cache`).
 *
 * @param messages - the conversation, oldest first
 * @param options - `cache`: the breakpoints to mark, or `undefined` for none
 * @returns `{ system, messages }` in the Anthropic format
 * @example
 * ```ts
 * const view = modelView(state, { target: 'anthropic', cache: useCache });
 * const { system } = toAnthropic(view.messages, { cache: view.cache }); // a string without cache
 * ```
 */
export function toAnthropic(
  messages: readonly Message[],
  options?: ToAnthropicOptions,
): AnthropicTranscript | AnthropicCachedTranscript;
export function toAnthropic(
  messages: readonly Message[],
  options?: ToAnthropicOptions,
): AnthropicTranscript | AnthropicCachedTranscript {
  const list = readMessages(messages, API);
  const cache = options === undefined ? undefined : readAnthropicCache(options, list.length);
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  /** With `cache`: the system texts of the marked messages, and where their last blocks went. */
  const markedSystem = new Set<number>();
  const places: BlockPlace[] = [];
  /** The blocks of the last user message while it holds only tool results (open for merging). */
  let results: AnthropicContentBlock[] | undefined;
  list.forEach((message, index) => {
    const marked = cache?.marked.has(index) === true;
    switch (message.role) {
      case 'system': {
        const text = messageText(message);
        if (text === '') break;
        if (marked) markedSystem.add(system.length);
        system.push(text);
        break;
      }
      case 'tool':
        if (results === undefined) {
          results = [];
          out.push({ role: 'user', content: results });
        }
        results.push(toolResult(message));
        if (marked) places.push({ message: out.length - 1, block: results.length - 1 });
        break;
      case 'user': {
        const blocks = mediaBlocks(message);
        if (results !== undefined && blocks.length > 0) {
          results.push(...blocks);
          if (marked) places.push({ message: out.length - 1, block: results.length - 1 });
        } else {
          out.push({ role: 'user', content: compactContent(blocks, cache !== undefined) });
          if (marked) places.push({ message: out.length - 1, block: -1 });
        }
        results = undefined;
        break;
      }
      case 'assistant':
        out.push(assistant(message, cache !== undefined));
        if (marked) places.push({ message: out.length - 1, block: -1 });
        results = undefined;
    }
  });
  if (cache !== undefined) {
    return {
      system: system.length > 0 ? systemBlocks(system, markedSystem, cache.control) : undefined,
      messages: places.length > 0 ? markBlocks(out, places, cache.control) : out,
    };
  }
  return {
    system: system.length > 0 ? system.join(ANTHROPIC_SYSTEM_SEPARATOR) : undefined,
    messages: out,
  };
}
