import { describeValue } from '../util/describeValue';
import { isPlainObject } from '../util/isPlainObject';
import type { TokenPrices } from './estimateCost';

const PRICE_FIELDS = ['input', 'cachedInput', 'cacheWrite', 'output'] as const;

/**
 * Prices as a plain, frozen {@link TokenPrices}, or why they are not (the field and the value):
 * an object whose `input`, `cachedInput`, `cacheWrite` and `output` are own fields, each a finite
 * number of at least 0 (per million tokens). Other fields are left out; `-0` is read as 0.
 *
 * @param value - prices from a caller or a file (`--prices file.json`)
 * @returns the prices, or the problem (`prices.output must be a finite number of at least 0 (per million tokens), received "15"`)
 * @example
 * ```ts
 * readPrices({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }); // the same prices
 * readPrices({ input: 3 }); // 'prices.cachedInput must be a finite number of at least 0 (per million tokens), received undefined'
 * ```
 * @internal
 */
export const readPrices = (value: unknown): TokenPrices | string => {
  if (!isPlainObject(value)) return `prices must be an object, received ${describeValue(value)}`;
  const read: Record<string, number> = {};
  for (const field of PRICE_FIELDS) {
    const price = Object.prototype.hasOwnProperty.call(value, field) ? value[field] : undefined;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
      return `prices.${field} must be a finite number of at least 0 (per million tokens), received ${describeValue(price)}`;
    }
    read[field] = price + 0;
  }
  return Object.freeze(read) as unknown as TokenPrices;
};
