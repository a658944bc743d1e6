import { codePointLength } from '../../util/codePoints';

/**
 * One fact as a block shows it: its line, the ids of the facts it shows (an entity's line shows
 * its attributes too), its section (the knowledge block has two: important, general) and its
 * place in the reference's order.
 *
 * @internal
 */
export interface BlockUnit {
  readonly ids: readonly string[];
  readonly line: string;
  readonly section: number;
  readonly order: number;
}

/**
 * A block's text: each section that has units, as its header then one line per unit, in the
 * reference's order; sections joined by a blank line (the reference's knowledge block).
 *
 * @internal
 */
export const renderUnits = (headers: readonly string[], units: readonly BlockUnit[]): string => {
  const sorted = [...units].sort((a, b) => a.order - b.order);
  return headers
    .map((header, section) => {
      const lines = sorted.filter((unit) => unit.section === section).map((unit) => unit.line);
      return lines.length === 0 ? '' : [header, ...lines].join('\n');
    })
    .filter((text) => text !== '')
    .join('\n\n');
};

/**
 * Where each unit's line ends in {@link renderUnits}' text, in code points, for units already in
 * display order (sections contiguous, as every module orders them).
 *
 * @internal
 */
export const lineEnds = (headers: readonly string[], sorted: readonly BlockUnit[]): number[] => {
  let length = 0;
  let section = -1;
  return sorted.map((unit) => {
    if (unit.section !== section) {
      length += (section === -1 ? 0 : 2) + codePointLength(headers[unit.section] as string);
      section = unit.section;
    }
    length += 1 + codePointLength(unit.line);
    return length;
  });
};

/**
 * What a budget allows: tokens of the text the block adds (`prefix` + its text) counted with
 * `count`, and, when set, the code points of its text.
 *
 * @internal
 */
export interface PackLimits {
  readonly budget: number;
  readonly prefix: string;
  readonly count: (text: string) => number;
  readonly maxChars: number | undefined;
  readonly maxUnits: number | undefined;
}

/**
 * Chooses which units go in a block within a token budget, best-ranked first, each whole or not
 * at all:
 *
 * 1. an estimate: walk `ranked` and take each unit whose cost (its line with its newline, plus
 *    its section's header the first time, counted apart) still fits, so `count` runs once per
 *    unit and header, never on a growing text;
 * 2. the exact check: count the whole block once; if the estimate was short (tokens are not
 *    additive), keep the longest best-ranked prefix of the chosen units that fits, found by
 *    bisection over exact counts (a few more counts).
 *
 * Whatever it returns fits exactly (an empty choice when nothing does, the header alone
 * included). Cost: `ranked.length + O(log n)` calls to `count`.
 *
 * @internal
 */
export const packUnits = (
  ranked: readonly BlockUnit[],
  headers: readonly string[],
  limits: PackLimits,
): BlockUnit[] => {
  const { budget, prefix, count, maxChars, maxUnits } = limits;
  const fits = (units: readonly BlockUnit[]): boolean => {
    const text = renderUnits(headers, units);
    return (
      (maxChars === undefined || codePointLength(text) <= maxChars) &&
      count(prefix + text) <= budget
    );
  };
  const headerCosts = new Map<string, number>();
  const headerCost = (text: string): number => {
    const known = headerCosts.get(text);
    if (known !== undefined) return known;
    const cost = count(text);
    headerCosts.set(text, cost);
    return cost;
  };
  const chosen: BlockUnit[] = [];
  const open = new Set<number>();
  let tokens = prefix === '' ? 0 : count(prefix);
  let chars = 0;
  for (const unit of ranked) {
    if (maxUnits !== undefined && chosen.length >= maxUnits) break;
    const opens = !open.has(unit.section);
    const header = headers[unit.section] as string;
    const separator = opens && open.size > 0 ? '\n\n' : '';
    const piece = `${opens ? separator + header : ''}\n${unit.line}`;
    const cost = (opens ? headerCost(separator + header) : 0) + count(`\n${unit.line}`);
    const length = codePointLength(piece);
    if (tokens + cost > budget || (maxChars !== undefined && chars + length > maxChars)) continue;
    chosen.push(unit);
    open.add(unit.section);
    tokens += cost;
    chars += length;
  }
  if (chosen.length === 0 || fits(chosen)) return chosen;
  let low = 0; // fits (an empty block)
  let high = chosen.length; // does not fit
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(chosen.slice(0, middle))) low = middle;
    else high = middle;
  }
  return chosen.slice(0, low);
};
