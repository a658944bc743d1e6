import type { ContentPart, Message } from './message';

/**
 * A tool call as callers may pass it: like {@link ToolCall}, but `parameters` may be any object
 * type (an `interface Args { city: string }`, an SDK's `Record<string, unknown>`) or left out
 * (read as `{}`), and optional fields may be `undefined`. It is checked at run time (a JSON
 * object, nothing else) and stored as an exact `ToolCall` whose `parameters` is a `JsonObject`.
 *
 * @example
 * ```ts
 * interface WeatherArgs { city: string }
 * const args: WeatherArgs = { city: 'Paris' };
 * const call: ToolCallInput = { id: 'c1', name: 'get_weather', parameters: args };
 * ```
 */
export interface ToolCallInput {
  readonly id?: string | undefined;
  readonly name: string;
  readonly parameters?: object | undefined;
  readonly thoughtSignature?: string | undefined;
}

/**
 * A content part as callers may pass it: optional fields may be `undefined`.
 *
 * @example
 * ```ts
 * const part: ContentPartInput = { type: 'text', text: 'hi', imageUrl: undefined };
 * ```
 */
export type ContentPartInput = {
  readonly [K in keyof ContentPart]: undefined extends ContentPart[K]
    ? ContentPart[K] | undefined
    : ContentPart[K];
};

/**
 * A message as callers may pass it to `addMessage`, `addMessages` and `ConversationMemory.add`:
 * like {@link Message}, but tool-call `parameters` may be any object type and optional fields
 * may be `undefined`. Every `Message` is a `MessageInput`. It is validated at run time and stored
 * as an exact, frozen `Message`.
 *
 * @example
 * ```ts
 * const input: MessageInput = { role: 'assistant', content: null, toolCalls: [{ name: 'f', parameters: sdkArgs }] };
 * const stored: Message = addMessage(createMemory(), input).state.messages[0];
 * ```
 */
export interface MessageInput {
  readonly role: Message['role'];
  readonly content: string | null;
  readonly toolCalls?: readonly ToolCallInput[] | undefined;
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly toolResult?: string | undefined;
  readonly imageBase64?: string | undefined;
  readonly contentParts?: readonly ContentPartInput[] | undefined;
  readonly id?: string | undefined;
  /** Any object type (an application's `interface`); checked at run time to be a JSON object. */
  readonly metadata?: object | undefined;
}
