import { estimateCost, type TokenPrices } from '../../tokens/estimateCost';
import type { StepUsage, UsageFigures } from './types';

/**
 * What the inspector shows of a usage: its counts, the share of the input read from the cache
 * (when the provider reported cache reads and the input is not empty), and the cost at `prices`
 * (when given).
 *
 * @param usage - a step's usage, or a total
 * @param prices - per million tokens (checked: see `estimateCost`)
 * @returns the figures
 * @throws {MemoryArgumentError} for prices that are not valid
 * @example
 * ```ts
 * usageFigures({ calls: 1, inputTokens: 10_000, cachedInputTokens: 8_000, cacheWriteTokens: 1_000, outputTokens: 500 },
 *   { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
 * // { …the usage, cacheShare: 0.8, cost: 0.01665 }
 * ```
 */
export const usageFigures = (usage: StepUsage, prices?: TokenPrices): UsageFigures => ({
  ...usage,
  ...(usage.cachedInputTokens === undefined || usage.inputTokens === 0
    ? {}
    : { cacheShare: usage.cachedInputTokens / usage.inputTokens }),
  ...(prices === undefined ? {} : { cost: estimateCost(usage, prices) }),
});

/** A share as a percentage with one decimal, rounded down (100% only when all of it). */
const percent = (share: number): string => `${Math.floor(share * 1000) / 10}%`;

/**
 * A cost in a few digits: two decimals from 1 up, else three significant digits (no currency:
 * the prices' unit).
 *
 * @param cost - a cost
 * @returns its text
 * @example
 * ```ts
 * costText(0.016654); // '0.0167'
 * costText(12.3456); // '12.35'
 * ```
 */
export const costText = (cost: number): string =>
  cost >= 1 ? cost.toFixed(2) : String(Number(cost.toPrecision(3)));

/**
 * Usage figures on one line: the calls (when more than one), the tokens sent, the share read from
 * the cache, the cache writes, the output tokens and the cost; each part only when known.
 *
 * @param figures - from {@link usageFigures}
 * @returns the line
 * @example
 * ```ts
 * usageText({ calls: 1, inputTokens: 10_000, cachedInputTokens: 8_000, cacheWriteTokens: 1_000, outputTokens: 500, cacheShare: 0.8, cost: 0.01665 });
 * // 'sent 10000 tokens, 80% from cache, 1000 written to cache, 500 out, cost 0.0167'
 * ```
 */
export const usageText = (figures: UsageFigures): string =>
  [
    ...(figures.calls === 1 ? [] : [`${figures.calls} calls`]),
    `sent ${figures.inputTokens} tokens`,
    ...(figures.cacheShare === undefined ? [] : [`${percent(figures.cacheShare)} from cache`]),
    ...(figures.cacheWriteTokens === undefined
      ? []
      : [`${figures.cacheWriteTokens} written to cache`]),
    `${figures.outputTokens} out`,
    ...(figures.cost === undefined ? [] : [`cost ${costText(figures.cost)}`]),
  ].join(', ');
