/// <reference lib="dom" />
import type { TokenPrices } from '../../../tokens/estimateCost';
import { readPrices } from '../../../tokens/readPrices';
import { usageTotal } from '../../model/stepUsage';
import { usageFigures, usageText } from '../../model/usageFigures';
import type { TimelineRow } from '../../model/types';

/**
 * The page's usage and cost: the step's usage line, the total of the steps, and the prices field.
 *
 * @example
 * ```ts
 * const usage = createUsagePanel(parts, rows, data.prices);
 * usage.show(4);
 * ```
 */
export interface UsagePanel {
  /** Shows the usage of step `n` (nothing for a step without one). */
  readonly show: (n: number) => void;
}

/**
 * The elements the usage panel fills: the bar (hidden when no step has a usage) with the total,
 * the prices field and its problem; and the step's usage line.
 *
 * @example
 * ```ts
 * const parts: UsageParts = { bar: byId('usage-bar'), total: byId('usage-total'), field: byId('prices'), problem: byId('prices-problem'), step: byId('step-usage') };
 * ```
 */
export interface UsageParts {
  readonly bar: HTMLElement;
  readonly total: HTMLElement;
  readonly field: HTMLInputElement;
  readonly problem: HTMLElement;
  readonly step: HTMLElement;
}

/**
 * The prices the field holds: none when empty, else the JSON `TokenPrices` object; or what is
 * wrong with them (the field and the value).
 */
const fieldPrices = (text: string): { prices?: TokenPrices; problem?: string } => {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const read = readPrices(value);
  return typeof read === 'string' ? { problem: read } : { prices: read };
};

/**
 * Builds the usage panel. The total covers every step of the timeline; the cost is shown with
 * valid prices only (the field starts with the prices the CLI was given; a problem in it is
 * shown beside it, and nothing is costed until it is fixed or emptied).
 *
 * @param parts - the elements to fill
 * @param rows - every step's row (their `usage`)
 * @param given - the prices of `--prices`, if any
 * @returns the panel
 * @example
 * ```ts
 * createUsagePanel(parts, data.rows, data.prices).show(0);
 * ```
 */
export const createUsagePanel = (
  parts: UsageParts,
  rows: readonly TimelineRow[],
  given: TokenPrices | undefined,
): UsagePanel => {
  const total = usageTotal(rows);
  let prices = given;
  let current = 0;
  const hasUsage = total !== null;
  parts.bar.hidden = !hasUsage;
  parts.step.hidden = !hasUsage;
  if (given !== undefined) parts.field.value = JSON.stringify(given);

  const show = (n: number): void => {
    current = n;
    if (total === null) return;
    const usage = rows[n]?.usage ?? null;
    parts.step.textContent =
      usage === null ? '' : `usage: ${usageText(usageFigures(usage, prices))}`;
    document.body.dataset['cost'] = prices === undefined ? 'off' : 'on';
  };
  const showTotal = (): void => {
    if (total === null) return;
    const steps = rows.filter((row) => row.usage !== null).length;
    parts.total.textContent = `usage, ${steps} step${steps === 1 ? '' : 's'}: ${usageText(usageFigures(total, prices))}`;
  };
  const readField = (): void => {
    const read = fieldPrices(parts.field.value);
    prices = read.prices;
    parts.problem.textContent = read.problem ?? '';
    parts.field.setAttribute('aria-invalid', String(read.problem !== undefined));
    showTotal();
    show(current);
  };
  parts.field.addEventListener('input', readField);
  readField();
  return { show };
};
