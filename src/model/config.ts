/**
 * The name of a tokenizer: one of the built-ins, or a name given to `registerTokenizer`.
 * Names (not functions) live in state, so state stays serializable and a replay counts the same.
 *
 * - `'o200k_base'` (default): GPT-4o / GPT-4.1 / o-series / GPT-5 tokens, via gpt-tokenizer.
 * - `'cl100k_base'`: GPT-4 / GPT-3.5 tokens, via gpt-tokenizer.
 * - `'heuristic'`: exactly the reference memory's count, `floor(code points of content / 4)`.
 *
 * @example
 * ```ts
 * const name: TokenizerName = 'heuristic';
 * ```
 */
export type TokenizerName = 'o200k_base' | 'cl100k_base' | 'heuristic' | (string & {});

/**
 * The limits of a memory. A plain readonly record that lives inside {@link MemoryState}.
 *
 * @example
 * ```ts
 * const config: MemoryConfig = { maxMessages: 20, maxTokens: 4000, tokenizer: 'o200k_base' };
 * ```
 */
export interface MemoryConfig {
  /** Keep at most this many messages (an integer ≥ 1; reference default 20). */
  readonly maxMessages: number;
  /** Keep at most this many tokens, or `null` for no token limit (an integer ≥ 1). */
  readonly maxTokens: number | null;
  /** Which tokenizer counts each message's tokens when it enters the state. */
  readonly tokenizer: TokenizerName;
}

/**
 * What `createMemory` and `new ConversationMemory` accept: every field optional; `undefined`
 * means the default.
 *
 * @example
 * ```ts
 * const options: MemoryOptions = { maxMessages: 10, maxTokens: null };
 * ```
 */
export interface MemoryOptions {
  readonly maxMessages?: number | undefined;
  readonly maxTokens?: number | null | undefined;
  readonly tokenizer?: TokenizerName | undefined;
}

/**
 * The defaults: the reference's `max_messages=20`, `max_tokens=None`, and the GPT-4o encoding.
 *
 * @example
 * ```ts
 * DEFAULT_CONFIG.maxMessages; // 20
 * ```
 */
export const DEFAULT_CONFIG: MemoryConfig = /* @__PURE__ */ Object.freeze({
  maxMessages: 20,
  maxTokens: null,
  tokenizer: 'o200k_base',
});
