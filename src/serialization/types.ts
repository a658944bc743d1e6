import type { ConversationUsage } from '../model/conversationUsage';
import type { KnowledgeState } from '../model/knowledge';

/**
 * A tool call in the reference's JSON: always these four keys, in this order.
 *
 * @example
 * ```ts
 * const call: ToolCallDict = { name: 'search', parameters: { q: 'x' }, id: 'call_1', thought_signature: null };
 * ```
 */
export interface ToolCallDict {
  readonly name: string;
  readonly parameters: { readonly [key: string]: unknown };
  readonly id: string | null;
  readonly thought_signature: string | null;
}

/**
 * A content part in the reference's JSON: always these five keys, in this order.
 *
 * @example
 * ```ts
 * const part: ContentPartDict = { type: 'text', text: 'hi', image_url: null, image_base64: null, media_type: null };
 * ```
 */
export interface ContentPartDict {
  readonly type: string;
  readonly text: string | null;
  readonly image_url: string | null;
  readonly image_base64: string | null;
  readonly media_type: string | null;
}

/**
 * A message in the reference's JSON (`Message.to_dict()`): always all eight keys, in this order,
 * with `null` for what is absent and for empty lists; then `id` and `metadata` when the message
 * has them (extra keys, which the reference ignores when it loads the file).
 *
 * @example
 * ```ts
 * toDict(state).messages[0].tool_call_id; // null
 * ```
 */
export interface MessageDict {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | null;
  readonly image_base64: string | null;
  readonly tool_name: string | null;
  readonly tool_result: string | null;
  readonly tool_calls: readonly ToolCallDict[] | null;
  readonly tool_call_id: string | null;
  readonly content_parts: readonly ContentPartDict[] | null;
  /** The application's message id; written only when the message has one (ours, not the reference's). */
  readonly id?: string;
  /** The application's metadata; written only when the message has some (ours, not the reference's). */
  readonly metadata?: { readonly [key: string]: unknown };
}

/**
 * A memory in the reference's JSON (`ConversationMemory.to_dict()`), plus our extension key when
 * the tokenizer is not the default.
 *
 * @example
 * ```ts
 * JSON.stringify(toDict(state)); // '{"max_messages":20,"max_tokens":null,"message_count":0,"messages":[],"summary":null}'
 * ```
 */
export interface MemoryDict {
  readonly max_messages: number;
  readonly max_tokens: number | null;
  readonly message_count: number;
  readonly messages: readonly MessageDict[];
  readonly summary: string | null;
  readonly conversation_memory?: ExtensionDict;
}

/**
 * What a memory file keeps under `conversation_memory` (the reference ignores it): each key only
 * when it differs from what a reference file implies.
 *
 * @example
 * ```ts
 * const extension: ExtensionDict = { tool_pairs: 'strict', positions: [4, 5], next_position: 6 };
 * toDict(state).conversation_memory?.knowledge; // state.knowledge, when it has one
 * ```
 */
export interface ExtensionDict {
  readonly tokenizer?: string;
  readonly tool_pairs?: 'reference' | 'strict';
  readonly start_on?: 'user' | null;
  readonly pin_system?: boolean;
  readonly prune?: 'oldest' | 'redundant';
  readonly prune_threshold?: number;
  readonly embedder?: string;
  /** `MemoryConfig.trimTo`, written when it is not 1. */
  readonly trim_to?: number;
  /** One per message of `messages`, rising. */
  readonly positions?: readonly number[];
  readonly next_position?: number;
  /** Trimmed messages held for summarizing. */
  readonly pending?: readonly { readonly position: number; readonly message: MessageDict }[];
  readonly summary_coverage?: readonly {
    readonly from: number;
    readonly to: number;
    readonly count: number;
  }[];
  /**
   * The conversation's knowledge (`MemoryState.knowledge`), as the state's own camelCase JSON;
   * only when the state has some.
   */
  readonly knowledge?: KnowledgeState;
  /**
   * The summed usage of the calls whose assistant messages left the window
   * (`MemoryState.trimmedUsage`, see `usageOf`), with the state's own camelCase keys; only when
   * some did.
   */
  readonly trimmed_usage?: ConversationUsage;
}
