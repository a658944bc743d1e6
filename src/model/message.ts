import type { Role } from './role';

/**
 * A JSON value: what tool-call parameters may contain. State must survive
 * `JSON.parse(JSON.stringify(state))` unchanged, so no `undefined`, `Date`, `Map` or functions.
 *
 * @example
 * ```ts
 * const params: JsonValue = { city: 'Paris', days: [1, 2] };
 * ```
 */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A JSON object: the shape of a tool call's `parameters`.
 *
 * @example
 * ```ts
 * const params: JsonObject = { q: 'cats', n: 2 };
 * ```
 */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * One tool invocation requested by an assistant message. Serialized as
 * `{"name", "parameters", "id", "thought_signature"}`, exactly as the reference writes it.
 *
 * @example
 * ```ts
 * const call: ToolCall = { id: 'call_1', name: 'get_weather', parameters: { city: 'Paris' } };
 * ```
 */
export interface ToolCall {
  /** Provider-assigned id that the matching tool result quotes as `toolCallId`. */
  readonly id?: string;
  /** The tool's name (the reference's `tool_name`, written as `name` in JSON). */
  readonly name: string;
  /** The arguments, as a JSON object. */
  readonly parameters: JsonObject;
  /** Opaque signature some providers (Gemini) attach to a call and expect back. */
  readonly thoughtSignature?: string;
}

/**
 * One part of a multimodal message: text, an image URL, or a base64 image.
 *
 * @example
 * ```ts
 * const part: ContentPart = { type: 'image_url', imageUrl: 'https://example.com/cat.png' };
 * ```
 */
export interface ContentPart {
  /** `'text'`, `'image_url'` or `'image_base64'` in practice; any string is kept as is. */
  readonly type: 'text' | 'image_url' | 'image_base64' | (string & {});
  readonly text?: string;
  readonly imageUrl?: string;
  readonly imageBase64?: string;
  readonly mediaType?: string;
}

/**
 * One message of a conversation: a plain readonly object, written by users as a literal.
 * Optional fields are left out when absent (state never holds `undefined`); `content` may be
 * `null`, as when a provider returns a tool-call-only assistant message.
 *
 * @example
 * ```ts
 * const result: Message = { role: 'tool', content: '42', toolCallId: 'c1', toolName: 'calc' };
 * const fromUi: Message = { role: 'user', content: 'hi', id: 'msg_17', metadata: { sentAt: 1764499200 } };
 * ```
 */
export interface Message {
  readonly role: Role;
  readonly content: string | null;
  /** Tool calls requested by an assistant message. */
  readonly toolCalls?: readonly ToolCall[];
  /** On a tool result: the id of the call it answers. */
  readonly toolCallId?: string;
  /** On a tool result: the name of the tool that produced it. */
  readonly toolName?: string;
  /** On a tool result: the structured result, when the producer kept one besides `content`. */
  readonly toolResult?: string;
  /** A base64 image attached to the message (the reference's `image_base64`). */
  readonly imageBase64?: string;
  /** Multimodal parts; when present, providers send these instead of `content`. */
  readonly contentParts?: readonly ContentPart[];
  /**
   * The application's own id for the message (its database row, the AI SDK's UI message id): a
   * non-empty string, kept as given. Never sent to a model, never counted as tokens, not checked
   * for uniqueness. A chat UI keys rendered messages by it (else by the message's position).
   */
  readonly id?: string;
  /**
   * The application's own data about the message (timestamps, feedback, the model's name): a plain
   * JSON object, deep-copied and frozen on entry. Never sent to a model, never counted as tokens.
   */
  readonly metadata?: JsonObject;
}
