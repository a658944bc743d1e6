/**
 * The replies of the loopback Anthropic server: the request and reply types a test scripts, the
 * Message object built from a scripted reply, and the API's error JSON.
 *
 * Test support only: it is not part of the library.
 */
import type { AnthropicCacheUsage } from './anthropicPromptCache';
import type { WireBlock, WireMessage } from './anthropicRules';

/** A request body as the client sent it (recorded before validation, so it may be invalid). */
export interface MessagesRequestBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly WireMessage[];
  readonly system?: string | readonly WireBlock[];
  readonly tools?: readonly { name: string; description?: string; input_schema: object }[];
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

/** A `tool_use` block the scripted reply asks for; the id defaults to `toolu_loopback_<n>`. */
export interface ScriptedToolUse {
  readonly id?: string;
  readonly name: string;
  readonly input: unknown;
}

/** A well-formed reply: text, tool uses, or both (text first), and the usage to report. */
export interface ScriptedMessage {
  readonly text?: string;
  readonly toolUses?: readonly ScriptedToolUse[];
  readonly usage?: {
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cache_read_input_tokens?: number | null;
    readonly cache_creation_input_tokens?: number | null;
  };
  /** Default: `'tool_use'` when there are tool uses, else `'end_turn'`. */
  readonly stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  /**
   * For a streamed reply: after this many events, the API's `event: error` (an
   * `overloaded_error` with `message`), and the stream ends there, as the API ends a stream it
   * cannot finish.
   */
  readonly failAfter?: { readonly events: number; readonly message: string };
}

/** A raw reply, for hostile answers: `body` is sent as JSON, or as is when it is a string. */
export interface RawReply {
  readonly status?: number;
  readonly body: unknown;
}

/** What `respond` returns. */
export type ScriptedReply = ScriptedMessage | RawReply;

/** The API's error JSON: `{"type":"error","error":{"type":…,"message":…},"request_id":…}`. */
export const errorBody = (type: string, message: string, requestId: string) => ({
  type: 'error',
  error: { type, message },
  request_id: requestId,
});

/** The text of the last user message (its text blocks joined with a space). */
export const lastUserText = (messages: readonly WireMessage[]): string => {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  if (last === undefined) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join(' ');
};

/**
 * The Message object answering `request` as `scripted` says: text first, then the tool uses
 * (ids from `nextId('toolu')` unless given); usage estimated from the sizes unless given, with
 * the prompt cache's counts (`cache`, see `anthropicCache.ts`) when the request has breakpoints.
 */
export const buildMessage = (
  request: MessagesRequestBody,
  scripted: ScriptedMessage,
  nextId: (prefix: string) => string,
  cache?: AnthropicCacheUsage,
) => {
  const content: unknown[] = [];
  if (scripted.text !== undefined) content.push({ type: 'text', text: scripted.text });
  for (const use of scripted.toolUses ?? []) {
    content.push({
      type: 'tool_use',
      id: use.id ?? nextId('toolu'),
      name: use.name,
      input: use.input,
    });
  }
  const toolCount = scripted.toolUses?.length ?? 0;
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: scripted.stopReason ?? (toolCount > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    container: null,
    stop_details: null,
    usage: scripted.usage ?? {
      input_tokens: Math.ceil(JSON.stringify(request.messages).length / 4),
      output_tokens: Math.ceil((scripted.text ?? '').length / 4) + toolCount,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      ...cache,
    },
  };
};
