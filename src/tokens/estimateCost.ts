import { MemoryArgumentError } from '../errors/memoryErrors';
import type { CompletionUsage } from '../model/completion';
import { readPrices } from './readPrices';
import { readUsage } from './readUsage';

/**
 * Prices of a model, in currency units (dollars, euros, …: the result is in the same unit) per
 * **million** tokens: `input` for input tokens read neither from nor into the cache,
 * `cachedInput` for tokens read from the cache, `cacheWrite` for tokens written to it (Anthropic
 * bills 5-minute writes at 1.25× `input`, one-hour writes at 2×; OpenAI does not bill writes: give
 * `input`), and `output`. The library ships no price list: prices change; read them from your
 * provider's pricing page.
 *
 * @example
 * ```ts
 * // Claude Sonnet 4, from Anthropic's pricing page as read on 2026-12-04 (5-minute cache writes):
 * const sonnet: TokenPrices = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
 * ```
 */
export interface TokenPrices {
  /** Per million input tokens neither read from the cache nor written to it. */
  readonly input: number;
  /** Per million input tokens read from the cache. */
  readonly cachedInput: number;
  /** Per million input tokens written to the cache. */
  readonly cacheWrite: number;
  /** Per million output tokens. */
  readonly output: number;
}

const API = 'estimateCost';

/**
 * The cost of a usage at the given prices: the input tokens not read from the cache nor written to
 * it at `input`, the cached ones at `cachedInput`, the written ones at `cacheWrite`, and the
 * output at `output`, each per million tokens. `usage` is one call's `CompletionUsage` or the
 * totals of `usageOf(state)` (absent cache counts are 0); its `inputTokens` counts every input
 * token, as the adapters report it.
 *
 * @param usage - the tokens (`{ inputTokens, outputTokens, cachedInputTokens?, cacheWriteTokens? }`)
 * @param prices - per million tokens, see {@link TokenPrices}
 * @returns the cost, in the prices' currency unit
 * @throws {MemoryArgumentError} for prices that are not finite numbers ≥ 0 (naming the field and
 *   the value) or a usage whose counts are not integers from 0 to 2^53 − 1, or whose cache counts
 *   pass `inputTokens`
 * @example
 * ```ts
 * import { estimateCost } from 'conversation-memory/tokens';
 * const sonnet = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }; // $ per MTok, read 2026-12-04
 * estimateCost({ inputTokens: 10_000, cachedInputTokens: 8_000, cacheWriteTokens: 1_000, outputTokens: 500 }, sonnet);
 * // (1,000 × 3 + 8,000 × 0.3 + 1,000 × 3.75 + 500 × 15) / 1e6 = 0.01665 (dollars)
 * ```
 */
export const estimateCost = (usage: CompletionUsage, prices: TokenPrices): number => {
  const checked = readPrices(prices);
  if (typeof checked === 'string') throw new MemoryArgumentError(API, checked);
  const read = readUsage(usage);
  if (typeof read === 'string') throw new MemoryArgumentError(API, read);
  const cached = read.cachedInputTokens ?? 0;
  const written = read.cacheWriteTokens ?? 0;
  const plain = read.inputTokens - cached - written;
  return (
    (plain * checked.input +
      cached * checked.cachedInput +
      written * checked.cacheWrite +
      read.outputTokens * checked.output) /
    1_000_000
  );
};
