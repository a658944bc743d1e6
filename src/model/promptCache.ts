/**
 * How long a provider keeps a cached prompt prefix: Anthropic's `'5m'` (the default, written at
 * 1.25× the input price) or `'1h'` (written at 2×). Reads cost 0.1× either way.
 *
 * @example
 * ```ts
 * const ttl: CacheTtl = '1h';
 * ```
 */
export type CacheTtl = '5m' | '1h';

/**
 * Where a request's cached prompt prefixes end: the indices of the messages whose last content
 * block closes a prefix the provider should cache (ascending, at most four, Anthropic's limit),
 * and how long to keep them. `modelView(state, { cache: true })` marks them (see `modelView`'s
 * rule 7); the Anthropic adapter and `toAnthropic` send each as `cache_control` on that block.
 *
 * @example
 * ```ts
 * const cache: CacheBreakpoints = { ttl: '5m', breakpoints: [0, 5, 7] };
 * ```
 */
export interface CacheBreakpoints {
  /** How long the provider keeps each prefix. */
  readonly ttl: CacheTtl;
  /** Indices of the messages whose last block ends a cached prefix, ascending. */
  readonly breakpoints: readonly number[];
}

/**
 * Prompt caching for one model call (`CompletionRequest.cache`): a view's breakpoints (for
 * Anthropic) and, optionally, a key that routes the calls of one conversation to the same cache
 * (OpenAI's `prompt_cache_key`; the agent gives its session's or event stream's key, or
 * `config.cacheKey`).
 *
 * @example
 * ```ts
 * const cache: CompletionCache = { ...view.cache!, key: 'thread-7' };
 * ```
 */
export interface CompletionCache extends CacheBreakpoints {
  /** Routes the calls of one conversation to the same cache (OpenAI's `prompt_cache_key`). */
  readonly key?: string | undefined;
}
