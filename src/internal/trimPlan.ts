import { MemoryConfigError } from '../errors/memoryErrors';
import type { MemoryConfig } from '../model/config';
import type { TrimRule } from '../model/effects';
import type { Message } from '../model/message';
import type { PositionRun } from '../model/state';
import { PLANNER_MISSING, type RedundancyPlan, redundancyPlanner } from './redundancy/slot';
import { countAt, messageAt, requestsTools, type Sequence, startsToolExchange } from './sequence';
import { strictOrphans, strictScanStart } from './toolGroups';

/**
 * Which messages leave a window, and by which rule: the one planning step every policy shares.
 * Indices refer to the sequence the plan was made for (held messages, then incoming ones).
 *
 * @example
 * ```ts
 * const plan: TrimPlan = { removed: [0, 1], rules: ['messageLimit', 'toolPairBoundary'], remainingTokens: 42 };
 * ```
 */
export interface TrimPlan {
  /** Indices of the messages that leave, ascending. */
  readonly removed: readonly number[];
  /** The rule that removes each, parallel to `removed`. */
  readonly rules: readonly TrimRule[];
  /** Tokens of the messages that stay. */
  readonly remainingTokens: number;
  /**
   * Present when a message leaves by the rule `'redundant'`: parallel to `removed`, the position
   * of the newer message that makes each redundant, or `null` for the other rules.
   */
  readonly duplicateOf?: readonly (number | null)[];
}

/**
 * A plan, and what ends it: the redundancy index (under `prune: 'redundant'`) forgets what left
 * and is kept for the new window.
 *
 * @internal
 */
export interface PlannedTrim extends TrimPlan {
  readonly finish: (gone: readonly number[], next: readonly Message[] | undefined) => void;
}

/**
 * Where the window's messages stand: its position runs and the position of the first incoming
 * message, and the API named by errors.
 *
 * @internal
 */
export interface PlanPlace {
  readonly runs: readonly PositionRun[];
  readonly start: number;
  readonly api: string;
}

/**
 * What a plan is made for: `limits: false` runs the tool-pair rules only (`fixToolPairBoundary`,
 * a load); `scan: 'tail'` trusts the held window to be valid already (an add), `'full'` checks
 * it all (an explicit `enforceLimits` or `fixToolPairBoundary`, a load).
 *
 * @internal
 */
export interface PlanScope {
  readonly limits: boolean;
  readonly scan: 'tail' | 'full';
}

const NO_REMOVALS: readonly number[] = /* @__PURE__ */ Object.freeze([]);
const NO_RULES: readonly TrimRule[] = /* @__PURE__ */ Object.freeze([]);

/**
 * Plans a trim of `sequence` under `config`, in this order:
 *
 * 1. `'strict'` only: the pairing rules (orphan tool results, unanswered groups);
 * 2. the count rule, then the token rule: drop the oldest unit (one message, or a whole
 *    tool-call group under `'strict'`) while over the limit and more than one unit remains; with
 *    `trimTo` below 1, once a limit binds, while over `trimTo` × each limit ({@link limitsAt});
 * 3. `'reference'` only: the boundary rule, drop leading tool results and tool-call messages
 *    while more than one message remains;
 * 4. `startOn: 'user'`: drop leading units until one starts with a user message, the newest
 *    unit included (the window may be left with pinned messages only).
 *
 * Pinned system messages (`pinSystem`) are skipped by every rule and still counted. Cost: the
 * units removed plus the newest unit (an add never re-scans the window), plus the scanned tail
 * under `'strict'`.
 *
 * @internal
 */
export const planTrimOf = (
  config: MemoryConfig,
  sequence: Sequence,
  totalTokens: number,
  scope: PlanScope,
  place: PlanPlace,
): PlannedTrim => {
  if (config.prune === 'redundant' && scope.limits) {
    return planUnits(config, sequence, totalTokens, scope, openRedundancy(config, sequence, place));
  }
  return config.toolPairs === 'reference' && !config.pinSystem && config.startOn === null
    ? planReferencePrefix(config, sequence, totalTokens, scope.limits)
    : planUnits(config, sequence, totalTokens, scope, undefined);
};

/**
 * The limits the count and token rules trim to: the config's own, or, when `trimTo` is below 1
 * and the window (`count` messages, `total` tokens) is over a limit, a step's:
 * `floor(trimTo × maxMessages)` messages (at least 1, what the count rule always keeps) and
 * `trimTo × maxTokens` tokens. The rules stop where they always stop (the newest unit, pinned
 * messages), so a step may end above these, never above what `trimTo: 1` keeps. Allocates only
 * when a step starts.
 *
 * @example
 * ```ts
 * limitsAt({ ...DEFAULT_CONFIG, maxMessages: 20, maxTokens: 1000, trimTo: 0.7 }, 21, 900);
 * // { maxMessages: 14, maxTokens: 700 }
 * ```
 * @internal
 */
export const limitsAt = (
  config: MemoryConfig,
  count: number,
  total: number,
): Pick<MemoryConfig, 'maxMessages' | 'maxTokens'> => {
  const { maxMessages, maxTokens, trimTo } = config;
  return trimTo !== 1 && (count > maxMessages || (maxTokens !== null && total > maxTokens))
    ? {
        maxMessages: Math.floor(trimTo * maxMessages) || 1,
        maxTokens: maxTokens === null ? null : trimTo * maxTokens,
      }
    : config;
};

/**
 * The `finish` of a plan that used no index.
 *
 * @internal
 */
export const NO_FINISH = (): void => {};

/** The redundancy planner's view of this trim. */
const openRedundancy = (
  config: MemoryConfig,
  sequence: Sequence,
  place: PlanPlace,
): RedundancyPlan => {
  const planner = redundancyPlanner();
  if (planner === undefined) throw new MemoryConfigError(place.api, [PLANNER_MISSING]);
  return planner.open(config, sequence, place);
};

/**
 * The reference policy with nothing pinned: every rule removes from the front, one message at a
 * time, so the plan is a prefix. The same rules as {@link planUnits}, in one tight loop (the
 * default policy is the hot path of every add).
 */
const planReferencePrefix = (
  config: MemoryConfig,
  sequence: Sequence,
  totalTokens: number,
  limits: boolean,
): PlannedTrim => {
  const n = sequence.length;
  let total = totalTokens;
  let cut = 0;
  let messageLimit = 0;
  let tokenLimit = 0;
  const { maxMessages, maxTokens } = limits ? limitsAt(config, n, total) : config;
  if (limits && n > maxMessages) {
    messageLimit = n - maxMessages;
    for (; cut < messageLimit; cut++) total -= countAt(sequence, cut);
  }
  if (limits && maxTokens !== null) {
    while (n - cut > 1 && total > maxTokens) {
      total -= countAt(sequence, cut++);
      tokenLimit++;
    }
  }
  while (n - cut > 1 && startsToolExchange(messageAt(sequence, cut))) {
    total -= countAt(sequence, cut++);
  }
  if (cut === 0) {
    return { removed: NO_REMOVALS, rules: NO_RULES, remainingTokens: total, finish: NO_FINISH };
  }
  const removed = new Array<number>(cut);
  const rules = new Array<TrimRule>(cut);
  for (let i = 0; i < cut; i++) {
    removed[i] = i;
    rules[i] =
      i < messageLimit
        ? 'messageLimit'
        : i < messageLimit + tokenLimit
          ? 'tokenLimit'
          : 'toolPairBoundary';
  }
  return { removed, rules, remainingTokens: total, finish: NO_FINISH };
};

/** Every policy: units (single messages, or whole groups under `'strict'`), pinned messages skipped. */
const planUnits = (
  config: MemoryConfig,
  sequence: Sequence,
  totalTokens: number,
  scope: PlanScope,
  redundancy: RedundancyPlan | undefined,
): PlannedTrim => {
  const n = sequence.length;
  const strict = config.toolPairs === 'strict';
  const pinSystem = config.pinSystem;

  const orphans = strict
    ? strictOrphans(sequence, scope.scan === 'full' ? 0 : strictScanStart(sequence.held))
    : NO_REMOVALS;
  const gone: ReadonlySet<number> | undefined = orphans.length > 0 ? new Set(orphans) : undefined;
  let total = totalTokens;
  for (const i of orphans) total -= countAt(sequence, i);
  let count = n - orphans.length;

  const pinned = (i: number): boolean => pinSystem && messageAt(sequence, i).role === 'system';
  // Removed by the rule 'redundant' (whole units, anywhere before the newest turn).
  const redundant = new Map<number, number>();
  const isGone = (i: number): boolean =>
    (gone !== undefined && gone.has(i)) || (redundant.size > 0 && redundant.has(i));
  const stays = (i: number): boolean => isGone(i) || pinned(i);

  // The newest unit is never removed: its first index bounds every front rule.
  let last = n - 1;
  while (last >= 0 && stays(last)) last--;
  if (strict) {
    while (last > 0 && (gone?.has(last) === true || messageAt(sequence, last).role === 'tool'))
      last--;
  }

  // A step (trimTo below 1): once a limit binds, every rule below trims to trimTo × each limit.
  const { maxMessages, maxTokens } = scope.limits ? limitsAt(config, count, total) : config;
  const overLimit = (): boolean => count > maxMessages || (maxTokens !== null && total > maxTokens);

  // 2a. 'redundant': whole units a newer twin makes redundant, oldest first (see the planner).
  if (redundancy !== undefined && overLimit()) {
    redundancy.removeWhile(overLimit, last, isGone, pinned, (i, twin) => {
      redundant.set(i, twin);
      total -= countAt(sequence, i);
      count--;
    });
  }

  const removed: number[] = [];
  const rules: TrimRule[] = [];
  let front = 0;

  /** Where the unit starting at `start` ends (exclusive). */
  const unitEnd = (start: number): number => {
    if (!strict || !requestsTools(messageAt(sequence, start))) return start + 1;
    let end = start + 1;
    while (end < n && (gone?.has(end) === true || messageAt(sequence, end).role === 'tool')) end++;
    return end;
  };

  /** Removes units from the front while `rule` says so, never the one starting at `bound`. */
  const removeWhile = (rule: TrimRule, bound: number): void => {
    for (;;) {
      while (front < n && stays(front)) front++;
      if (front >= bound) return;
      if (!shouldRemove(rule, messageAt(sequence, front))) return;
      const end = unitEnd(front);
      for (let i = front; i < end; i++) {
        if (isGone(i)) continue;
        removed.push(i);
        rules.push(rule);
        total -= countAt(sequence, i);
        count--;
      }
      front = end;
    }
  };

  const shouldRemove = (rule: TrimRule, message: Message): boolean => {
    switch (rule) {
      case 'messageLimit':
        return count > maxMessages;
      case 'tokenLimit':
        return total > (maxTokens as number);
      case 'toolPairBoundary':
        return startsToolExchange(message);
      case 'startOn':
        return message.role !== 'user';
      case 'redundant':
        return false;
    }
  };

  if (scope.limits) {
    removeWhile('messageLimit', last);
    if (maxTokens !== null) removeWhile('tokenLimit', last);
  }
  if (!strict) removeWhile('toolPairBoundary', last);
  // A window that does not start with a user message is what startOn exists to prevent: it may
  // remove the newest unit too, leaving only pinned messages.
  if (scope.limits && config.startOn === 'user') removeWhile('startOn', n);

  const finish = redundancy === undefined ? NO_FINISH : redundancy.close.bind(redundancy);
  if (orphans.length === 0 && redundant.size === 0) {
    return { removed, rules, remainingTokens: total, finish };
  }
  return mergeRemovals(orphans, redundant, removed, rules, total, finish);
};

/**
 * Merges the pairing removals (`toolPairBoundary`) and the redundant ones into the front
 * removals, keeping indices ascending.
 */
const mergeRemovals = (
  orphans: readonly number[],
  redundant: ReadonlyMap<number, number>,
  front: readonly number[],
  frontRules: readonly TrimRule[],
  remainingTokens: number,
  finish: PlannedTrim['finish'],
): PlannedTrim => {
  const all: [index: number, rule: TrimRule, twin: number | null][] = [];
  for (const i of orphans) all.push([i, 'toolPairBoundary', null]);
  for (const [i, twin] of redundant) all.push([i, 'redundant', twin]);
  front.forEach((i, k) => all.push([i, frontRules[k] as TrimRule, null]));
  all.sort((a, b) => a[0] - b[0]);
  const removed = all.map((entry) => entry[0]);
  const rules = all.map((entry) => entry[1]);
  if (redundant.size === 0) return { removed, rules, remainingTokens, finish };
  return {
    removed,
    rules,
    remainingTokens,
    duplicateOf: all.map((entry) => entry[2]),
    finish,
  };
};
