import type { MemoryEffect } from '../../model/effects';
import type { RemovalRule, SummaryChange, TrimmedCount } from './types';

/** The rule of each removed message of a `memory/trimmed` effect, in window order. */
export const removalRules = (
  effect: Extract<MemoryEffect, { type: 'memory/trimmed' }>,
): readonly RemovalRule[] =>
  effect.reason === 'clear' ? effect.positions.map(() => 'clear' as const) : effect.rules;

/**
 * What left the window at one step, from its effects: how many, by which rule, at which positions.
 *
 * @param effects - the effects of one action
 * @returns the count, the count by rule (rules that removed nothing left out) and the positions
 * @example
 * ```ts
 * trimmedCount(memoryTransition(state, action).effects); // { count: 1, byRule: { messageLimit: 1 }, positions: [0] }
 * ```
 */
export const trimmedCount = (effects: readonly MemoryEffect[]): TrimmedCount => {
  const byRule: Partial<Record<RemovalRule, number>> = {};
  const positions: number[] = [];
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed') continue;
    for (const rule of removalRules(effect)) byRule[rule] = (byRule[rule] ?? 0) + 1;
    positions.push(...effect.positions);
  }
  return { count: positions.length, byRule, positions };
};

/**
 * The summary change of one step, from its effects (the last one when there are several).
 *
 * @param effects - the effects of one action
 * @returns the change, or `null` when the summary did not change
 * @example
 * ```ts
 * summaryChange(applySummary(state, 'Alice.').effects); // { summary: 'Alice.', previous: null, coverage: null }
 * ```
 */
export const summaryChange = (effects: readonly MemoryEffect[]): SummaryChange | null => {
  const changes = effects.filter((effect) => effect.type === 'memory/summaryChanged');
  const first = changes[0];
  const last = changes[changes.length - 1];
  if (first === undefined || last === undefined) return null;
  return { summary: last.summary, previous: first.previous, coverage: last.coverage ?? null };
};
