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
 * The name of an embedder: the built-in `'lexical'` (MinHash over word 3-shingles, compared by
 * their exact Jaccard similarity: no network, no model), or a name given to `registerEmbedder`.
 * Names, not functions, live in the config, so state stays serializable.
 *
 * @example
 * ```ts
 * const name: EmbedderName = 'lexical';
 * ```
 */
export type EmbedderName = 'lexical' | (string & {});

/**
 * What trimming removes first when a limit binds.
 *
 * - `'oldest'` (default): the oldest messages, as the reference.
 * - `'redundant'`: first the messages that a newer exact or near twin makes redundant (oldest
 *   first, tool-call groups whole, never a pinned message or the newest turn, never a message
 *   whose twin changes a value); then, if a limit still binds, the oldest.
 *
 * @example
 * ```ts
 * const prune: PrunePolicy = 'redundant';
 * ```
 */
export type PrunePolicy = 'oldest' | 'redundant';

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
  /** How trimming treats tool calls and their results; see {@link ToolPairPolicy}. */
  readonly toolPairs: ToolPairPolicy;
  /**
   * `'user'`: after the limits, drop leading messages (whole groups under `'strict'`) until the
   * window's first message that is not a pinned system message is a user message. Unlike the
   * limits, this may remove the newest message too: a window with no user message left keeps its
   * pinned system messages only (providers such as Anthropic reject a transcript that does not
   * start with a user turn). `null` (default): no such rule, as the reference.
   */
  readonly startOn: 'user' | null;
  /** `true`: system messages are never trimmed (they still count toward both limits). */
  readonly pinSystem: boolean;
  /** What trimming removes first; see {@link PrunePolicy}. */
  readonly prune: PrunePolicy;
  /**
   * Under `prune: 'redundant'`: the similarity (0 to 1) from which an older message counts as a
   * near duplicate of a newer one: the exact Jaccard similarity of their word 3-shingles for the
   * `'lexical'` embedder, the cosine of their vectors for a registered one. Default 0.9; `1`
   * removes exact repeats only. Candidates come from locality-sensitive buckets, so a pair just
   * above the threshold may be missed (the same way in every replay).
   */
  readonly pruneThreshold: number;
  /**
   * Under `prune: 'redundant'`: which embedder compares messages (default `'lexical'`). A
   * registered one also helps `modelView`'s recall: its nearest messages are fused with BM25's.
   */
  readonly embedder: EmbedderName;
  /**
   * Trimming in steps, so the prompt prefix stays unchanged for many turns (prompt caches hit):
   * a number above 0 and at most 1. When an add takes the window over a limit, the trim removes
   * messages, by the same rules and in the same order as always, until the window holds at most
   * `floor(trimTo × maxMessages)` messages (at least 1) and at most `trimTo × maxTokens` tokens;
   * between two such steps the limits remove nothing and the window only grows at its end. What
   * the rules never remove still stays (pinned system messages, the newest message or tool-call
   * group), so a step may stop above its target, never above what a trim keeps today. `1`
   * (default): trim back to the limits themselves on every add that passes one, as the reference.
   */
  readonly trimTo: number;
}

/**
 * How trimming treats tool calls and their results.
 *
 * - `'reference'` (default): selectools' exact rules. Limits remove single messages from the
 *   front; then leading tool results and tool-call messages are dropped, keeping at least one
 *   message, which may itself be an orphan tool result. Ids are not matched.
 * - `'strict'`: provider-safe. An assistant tool-call message and all its results (matched by
 *   id) form a group that is kept or removed whole; the newest group is never split, even when it
 *   alone exceeds a limit; a group still waiting for its results is kept whole while it is the
 *   newest; a tool result whose call is not in the window, and a group whose calls were not all
 *   answered before another message arrived, are removed. The window never holds a lone orphan.
 *
 * @example
 * ```ts
 * const state = createMemory({ maxMessages: 10, toolPairs: 'strict', startOn: 'user', pinSystem: true });
 * ```
 */
export type ToolPairPolicy = 'reference' | 'strict';

/**
 * What `createMemory` and `new ConversationMemory` accept: every field optional; `undefined`
 * means the default.
 *
 * @example
 * ```ts
 * const options: MemoryOptions = { maxMessages: 10, maxTokens: null, toolPairs: 'strict' };
 * ```
 */
export interface MemoryOptions {
  readonly maxMessages?: number | undefined;
  readonly maxTokens?: number | null | undefined;
  readonly tokenizer?: TokenizerName | undefined;
  readonly toolPairs?: ToolPairPolicy | undefined;
  readonly startOn?: 'user' | null | undefined;
  readonly pinSystem?: boolean | undefined;
  readonly prune?: PrunePolicy | undefined;
  readonly pruneThreshold?: number | undefined;
  readonly embedder?: EmbedderName | undefined;
  readonly trimTo?: number | undefined;
}
