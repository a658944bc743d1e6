import type { JsonObject } from '../model/message';
import type { CacheTtl } from '../model/promptCache';

/**
 * A cache breakpoint of the Anthropic Messages API, on the content block (or system text block)
 * that ends a prefix to cache: `{ type: 'ephemeral' }` for the five-minute cache,
 * `{ type: 'ephemeral', ttl: '1h' }` for the one-hour cache.
 *
 * @example
 * ```ts
 * const block: AnthropicTextBlock = { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } };
 * ```
 */
export interface AnthropicCacheControl {
  /** The only kind of cache the API has. */
  readonly type: 'ephemeral';
  /** `'1h'` for the one-hour cache; absent, the five-minute cache. */
  readonly ttl?: CacheTtl;
}

/**
 * A text content block of the Anthropic Messages API.
 *
 * @example
 * ```ts
 * const block: AnthropicTextBlock = { type: 'text', text: 'Hello' };
 * ```
 */
export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
  /** A cache breakpoint: the prefix up to and including this block is cached. */
  readonly cache_control?: AnthropicCacheControl;
}

/**
 * Where an Anthropic image comes from: base64 data with its media type, or a URL. The API
 * accepts the media types `image/jpeg`, `image/png`, `image/gif` and `image/webp`.
 *
 * @example
 * ```ts
 * const source: AnthropicImageSource = { type: 'url', url: 'https://example.com/cat.png' };
 * ```
 */
export type AnthropicImageSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string };

/**
 * An image content block of the Anthropic Messages API.
 *
 * @example
 * ```ts
 * const block: AnthropicImageBlock = {
 *   type: 'image',
 *   source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
 * };
 * ```
 */
export interface AnthropicImageBlock {
  readonly type: 'image';
  readonly source: AnthropicImageSource;
  /** A cache breakpoint: the prefix up to and including this block is cached. */
  readonly cache_control?: AnthropicCacheControl;
}

/**
 * A tool call of an assistant message: the tool's `name`, its arguments as `input`, and the `id`
 * that the matching `tool_result` quotes.
 *
 * @example
 * ```ts
 * const block: AnthropicToolUseBlock = { type: 'tool_use', id: 'toolu_01', name: 'calc', input: { expr: '2+2' } };
 * ```
 */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
  /** A cache breakpoint: the prefix up to and including this block is cached. */
  readonly cache_control?: AnthropicCacheControl;
}

/**
 * A tool result, sent in a user message: `tool_use_id` names the `tool_use` it answers;
 * `content` is a string, or text and image blocks.
 *
 * @example
 * ```ts
 * const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: 'toolu_01', content: '4' };
 * ```
 */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string | readonly (AnthropicTextBlock | AnthropicImageBlock)[];
  /** A cache breakpoint: the prefix up to and including this block is cached. */
  readonly cache_control?: AnthropicCacheControl;
}

/**
 * Any content block that {@link toAnthropic} writes and {@link fromAnthropic} reads.
 *
 * @example
 * ```ts
 * const blocks: AnthropicContentBlock[] = [{ type: 'text', text: 'Checking.' }];
 * ```
 */
export type AnthropicContentBlock =
  AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

/**
 * One message of the Anthropic Messages API (`messages[i]` of a request): the role is `user` or
 * `assistant` (system text goes in the request's top-level `system`), the content a string or a
 * list of blocks. A structural type of our own: it does not depend on `@anthropic-ai/sdk`.
 *
 * @example
 * ```ts
 * const message: AnthropicMessage = { role: 'user', content: 'What is 2+2?' };
 * ```
 */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly AnthropicContentBlock[];
}

/**
 * A conversation in the Anthropic format: the `system` text (`undefined` when there is none) and
 * the `messages`, as a Messages API request takes them.
 *
 * @example
 * ```ts
 * const transcript: AnthropicTranscript = {
 *   system: 'Be brief.',
 *   messages: [{ role: 'user', content: 'hi' }],
 * };
 * ```
 */
export interface AnthropicTranscript {
  readonly system: string | undefined;
  readonly messages: readonly AnthropicMessage[];
}

/**
 * A conversation in the Anthropic format with cache breakpoints (`toAnthropic(messages, { cache })`):
 * `system` as a list of text blocks (`undefined` when there is no system text), and the marked
 * messages' last blocks carrying `cache_control`.
 *
 * @example
 * ```ts
 * const transcript: AnthropicCachedTranscript = {
 *   system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
 *   messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
 * };
 * ```
 */
export interface AnthropicCachedTranscript {
  /** The system texts, one text block each, in order; `undefined` when there are none. */
  readonly system: readonly AnthropicTextBlock[] | undefined;
  /** The messages, the marked ones' last blocks with `cache_control`. */
  readonly messages: readonly AnthropicMessage[];
}
