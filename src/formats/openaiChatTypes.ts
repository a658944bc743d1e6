/**
 * Chat Completions request messages, as plain structural types (the `openai` package is an
 * optional peer: nothing in the root entry imports it). They are assignable to the client's
 * `ChatCompletionMessageParam` except where noted on {@link OpenAIChatToolCall.id} and
 * {@link OpenAIChatToolMessage.tool_call_id}. Lists are mutable arrays because the client's types
 * are; every list {@link toOpenAIChat} returns is new.
 */

/**
 * A text content part.
 *
 * @example
 * ```ts
 * const part: OpenAIChatTextPart = { type: 'text', text: 'What is in this image?' };
 * ```
 */
export interface OpenAIChatTextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * An image content part: an http(s) URL or a `data:<media type>;base64,…` URL.
 *
 * @example
 * ```ts
 * const part: OpenAIChatImagePart = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };
 * ```
 */
export interface OpenAIChatImagePart {
  readonly type: 'image_url';
  readonly image_url: { readonly url: string };
}

/**
 * A content part of a user message: text or an image.
 *
 * @example
 * ```ts
 * const parts: OpenAIChatContentPart[] = [{ type: 'text', text: 'Describe it.' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }];
 * ```
 */
export type OpenAIChatContentPart = OpenAIChatTextPart | OpenAIChatImagePart;

/**
 * A function tool call inside an assistant message; `arguments` is the parameters as JSON text.
 *
 * @example
 * ```ts
 * const call: OpenAIChatToolCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
 * ```
 */
export interface OpenAIChatToolCall {
  /**
   * Absent only when our `ToolCall` had no id. The API requires one (`Missing required parameter:
   * 'messages[1].tool_calls[0].id'.`); `validateTranscript` reports such calls before a request.
   */
  readonly id?: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * A system message.
 *
 * @example
 * ```ts
 * const message: OpenAIChatSystemMessage = { role: 'system', content: 'You are terse.' };
 * ```
 */
export interface OpenAIChatSystemMessage {
  readonly role: 'system';
  readonly content: string | OpenAIChatTextPart[];
}

/**
 * A user message: text, or text and image parts.
 *
 * @example
 * ```ts
 * const message: OpenAIChatUserMessage = { role: 'user', content: 'Hi!' };
 * ```
 */
export interface OpenAIChatUserMessage {
  readonly role: 'user';
  readonly content: string | OpenAIChatContentPart[];
}

/**
 * An assistant message: text, tool calls, or both; `content` is `null` only beside tool calls.
 *
 * @example
 * ```ts
 * const message: OpenAIChatAssistantMessage = { role: 'assistant', content: null, tool_calls: [
 *   { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
 * ] };
 * ```
 */
export interface OpenAIChatAssistantMessage {
  readonly role: 'assistant';
  readonly content: string | OpenAIChatTextPart[] | null;
  readonly tool_calls?: OpenAIChatToolCall[];
}

/**
 * A tool result, answering the call whose id it quotes.
 *
 * @example
 * ```ts
 * const message: OpenAIChatToolMessage = { role: 'tool', tool_call_id: 'call_1', content: '18°C' };
 * ```
 */
export interface OpenAIChatToolMessage {
  readonly role: 'tool';
  /** Absent only when our message had no `toolCallId`; the API requires one. */
  readonly tool_call_id?: string;
  readonly content: string | OpenAIChatTextPart[];
}

/**
 * One Chat Completions request message, as {@link toOpenAIChat} writes it.
 *
 * @example
 * ```ts
 * const messages: OpenAIChatMessage[] = [{ role: 'user', content: 'Hi!' }, { role: 'assistant', content: 'Hello!' }];
 * ```
 */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage;
