import type { TokenPrices } from '../../tokens/estimateCost';
import { readPrices } from '../../tokens/readPrices';
import { escapeText } from '../../util/escapeText';

/**
 * The prices of `--prices FILE`, or what is wrong with them, naming the file and, for prices that
 * do not read, the field and the value: a file that cannot be read, text that is not JSON, or JSON
 * that is not a {@link TokenPrices} object.
 *
 * @param file - the file, as given
 * @param readText - reads a file's text, throwing when it cannot
 * @returns `{ prices }`, or `{ problem }` (`--prices p.json: prices.output must be a finite number …, received "15"`)
 * @example
 * ```ts
 * pricesFile('prices.json', (f) => readFileSync(f, 'utf8')); // { prices: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 } }
 * ```
 * @internal
 */
export const pricesFile = (
  file: string,
  readText: (file: string) => string,
): { readonly prices: TokenPrices } | { readonly problem: string } => {
  const at = `--prices ${escapeText(file, 200)}`;
  const why = (error: unknown): string =>
    escapeText(error instanceof Error ? error.message : String(error), 300);
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    return { problem: `${at}: cannot read the file: ${why(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${at}: not JSON: ${why(error)}` };
  }
  const prices = readPrices(value);
  return typeof prices === 'string' ? { problem: `${at}: ${escapeText(prices, 300)}` } : { prices };
};
