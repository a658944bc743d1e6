import type { MemoryConfig } from '../model/config';
import type { MemoryEffect, Transition, TrimBreakdown, TrimRule } from '../model/effects';
import type { Message } from '../model/message';
import type { MemoryState } from '../model/state';
import { freezeWindow } from '../model/freeze';
import type { PositionRun } from '../model/state';
import { messageAt, type Sequence } from './sequence';
import { keptRanges, runsOfRanges, sliceRanges } from './applyRemovals';
import { positionsOf, runsAfterPrefixCut } from './positions';
import { positionAtIndex } from './positionSearch';
import { planTrimOf, type PlanScope, type PlannedTrim, NO_FINISH } from './trimPlan';
import { addCallUsage, usageOfMessages } from './callUsage';

/** Below this many elements a plain loop copies faster than `slice` + `concat` (measured on V8). */
const LOOP_COPY_MAX = 48;

/**
 * `held.slice(cut).concat(incoming)`: the window copy every add pays, made with one copy of the
 * kept pointers. Small windows (the chat case) are copied by a loop into an array of the final
 * size, about 2× faster there; larger ones by `concat` (the engine's bulk copy) and then `shift`
 * or `splice` of the cut prefix, which V8 does in place by moving the array's start (measured:
 * half the time of `slice` + `concat` at 1,000 and 10,000 elements).
 */
const dropThenAppend = <T>(held: readonly T[], cut: number, incoming: readonly T[]): T[] => {
  const keep = held.length - cut;
  const size = keep + incoming.length;
  if (size > LOOP_COPY_MAX) {
    const out = held.concat(incoming);
    if (cut === 1) out.shift();
    else if (cut > 1) out.splice(0, cut);
    return out;
  }
  const out = new Array<T>(size);
  for (let i = 0; i < keep; i++) out[i] = held[cut + i] as T;
  for (let i = 0; i < incoming.length; i++) out[keep + i] = incoming[i] as T;
  return out;
};

/**
 * The window without the block `[from, from + count)` and with `incoming` after it, where `from`
 * is small (pinned messages before the block): the prefix moves up by `count`, then the start is
 * cut as in {@link dropThenAppend}.
 */
const dropBlockThenAppend = <T>(
  held: readonly T[],
  from: number,
  count: number,
  incoming: readonly T[],
): T[] => {
  if (held.length - count + incoming.length <= LOOP_COPY_MAX || from + count > held.length) {
    return sliceRanges(held, incoming, [
      [0, from],
      [from + count, held.length + incoming.length],
    ]);
  }
  const out = held.concat(incoming);
  for (let i = from - 1; i >= 0; i--) out[i + count] = out[i] as T;
  if (count === 1) out.shift();
  else out.splice(0, count);
  return out;
};

const sum = (values: readonly number[]): number => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

/** The positions of the removed indices (held ones from the runs, incoming ones from `start`). */
const removedPositions = (
  removed: readonly number[],
  runs: readonly PositionRun[],
  held: number,
  start: number,
): number[] => removed.map((i) => (i < held ? positionAtIndex(runs, i) : start + (i - held)));

/**
 * The one empty effect list every no-op shares: the memory's reducers, the knowledge reducers,
 * the object API and the agent. Typed `never[]` so that it is a list of either kind of effect.
 */
export const NO_EFFECTS: readonly never[] = /* @__PURE__ */ Object.freeze([]);

/** The one empty list every empty field of a state shares. */
export const EMPTY: readonly never[] = /* @__PURE__ */ Object.freeze([]);

/**
 * Builds a state record; the record is always frozen (O(1)), its window arrays in development
 * only (the `freezeWindow` rule).
 *
 * @internal
 */
export const makeState = (fields: {
  config: MemoryConfig;
  messages: Message[] | readonly Message[];
  tokenCounts: number[] | readonly number[];
  positionRuns: MemoryState['positionRuns'];
  nextPosition: number;
  totalTokens: number;
  summary: string | null;
  pendingMessages: MemoryState['pendingMessages'];
  pendingPositions: MemoryState['pendingPositions'];
  summaryCoverage: MemoryState['summaryCoverage'];
  knowledge?: MemoryState['knowledge'];
  trimmedUsage?: MemoryState['trimmedUsage'] | undefined;
}): MemoryState =>
  Object.freeze({
    config: fields.config,
    messages: freezeWindow(fields.messages as Message[]),
    tokenCounts: freezeWindow(fields.tokenCounts as number[]),
    positionRuns: fields.positionRuns,
    nextPosition: fields.nextPosition,
    totalTokens: fields.totalTokens,
    summary: fields.summary,
    pendingMessages: fields.pendingMessages,
    pendingPositions: fields.pendingPositions,
    summaryCoverage: fields.summaryCoverage,
    ...(fields.knowledge === undefined ? {} : { knowledge: fields.knowledge }),
    ...(fields.trimmedUsage && { trimmedUsage: fields.trimmedUsage }),
  });

/**
 * A state like `state` with another window (and next position); everything else carried over.
 *
 * @internal
 */
export const withWindow = (
  state: MemoryState,
  messages: Message[],
  tokenCounts: number[],
  positionRuns: MemoryState['positionRuns'],
  nextPosition: number,
  totalTokens: number,
  trimmedUsage: MemoryState['trimmedUsage'],
): MemoryState =>
  makeState({
    config: state.config,
    messages,
    tokenCounts,
    positionRuns,
    nextPosition,
    totalTokens,
    summary: state.summary,
    pendingMessages: state.pendingMessages,
    pendingPositions: state.pendingPositions,
    summaryCoverage: state.summaryCoverage,
    ...(state.knowledge === undefined ? {} : { knowledge: state.knowledge }),
    trimmedUsage,
  });

/**
 * The scope of an add: limits on, and only the tail of the (already valid) window scanned.
 *
 * @internal
 */
export const ADD: PlanScope = /* @__PURE__ */ Object.freeze({ limits: true, scan: 'tail' });

const countRules = (rules: readonly TrimRule[]): TrimBreakdown => {
  const breakdown = { messageLimit: 0, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 };
  let redundant = 0;
  for (const rule of rules) {
    if (rule === 'redundant') redundant++;
    else breakdown[rule]++;
  }
  return Object.freeze(redundant === 0 ? breakdown : { ...breakdown, redundant });
};

/**
 * Appends `incoming` to the window and trims it: plans with {@link planTrimOf}, then applies the
 * plan once (one copy of the window). Incoming messages get the next positions, even those the
 * plan removes at once. The token total is updated by subtracting the stored counts of what
 * leaves: nothing is re-counted. With `withEffects: false` (a replay that keeps only states) the
 * trim effect is not built and the effects are always empty.
 *
 * @internal
 */
export const appendAndTrim = (
  state: MemoryState,
  incoming: readonly Message[],
  incomingCounts: readonly number[],
  scope: PlanScope,
  withEffects = true,
  api = 'enforceLimits',
): Transition => {
  const { messages, tokenCounts } = state;
  const sequence: Sequence = {
    held: messages,
    heldCounts: tokenCounts,
    incoming,
    incomingCounts,
    length: messages.length + incoming.length,
  };
  const before = state.totalTokens + sum(incomingCounts);
  const plan: PlannedTrim = planTrimOf(state.config, sequence, before, scope, {
    runs: state.positionRuns,
    start: state.nextPosition,
    api,
  });
  if (plan.removed.length === 0 && incoming.length === 0) {
    plan.finish(EMPTY, messages);
    return { state, effects: NO_EFFECTS };
  }

  const { nextPosition: start, positionRuns } = state;
  const nextPosition = start + incoming.length;
  const { removed } = plan;
  const cut = removed.length;
  const prefix = cut === 0 || removed[cut - 1] === cut - 1;
  let keptMessages: Message[];
  let keptCounts: number[];
  let runs: MemoryState['positionRuns'];
  let goneMessages: Message[] = [];
  let gonePositions: number[] = [];
  // The usage of the calls that leave (their assistant messages' `metadata.usage`) joins the
  // state's, even when no effect is built: one property check per message that leaves.
  let trimmedUsage = state.trimmedUsage;
  if (prefix && cut <= messages.length) {
    // The common case (every reference-policy trim): one copy of each array, O(runs) positions.
    keptMessages = dropThenAppend(messages, cut, incoming);
    keptCounts = dropThenAppend(tokenCounts, cut, incomingCounts);
    runs = runsAfterPrefixCut(positionRuns, messages.length, cut, start, incoming.length);
    for (let i = 0; i < cut; i++) trimmedUsage = addCallUsage(trimmedUsage, messages[i] as Message);
    if (withEffects) {
      goneMessages = messages.slice(0, cut);
      gonePositions = positionsOf(positionRuns, cut);
    }
  } else {
    // Removals behind pinned messages, or inside the tail: copy the kept ranges.
    const ranges = keptRanges(messages.length + incoming.length, removed);
    const first = removed[0] as number;
    if (removed[cut - 1] === first + cut - 1 && first <= LOOP_COPY_MAX) {
      // One block behind a few pinned messages (the usual pinSystem trim).
      keptMessages = dropBlockThenAppend(messages, first, cut, incoming);
      keptCounts = dropBlockThenAppend(tokenCounts, first, cut, incomingCounts);
    } else {
      keptMessages = sliceRanges(messages, incoming, ranges);
      keptCounts = sliceRanges(tokenCounts, incomingCounts, ranges);
    }
    runs = runsOfRanges(positionRuns, messages.length, start, ranges);
    for (const i of removed) trimmedUsage = addCallUsage(trimmedUsage, messageAt(sequence, i));
    if (withEffects) {
      goneMessages = removed.map((i) => messageAt(sequence, i));
      gonePositions = removedPositions(removed, positionRuns, messages.length, start);
    }
  }
  const next = withWindow(
    state,
    keptMessages,
    keptCounts,
    runs,
    nextPosition,
    plan.remainingTokens,
    trimmedUsage,
  );
  if (plan.finish !== NO_FINISH) {
    plan.finish(
      withEffects
        ? gonePositions
        : removedPositions(plan.removed, positionRuns, messages.length, start),
      next.messages,
    );
  }
  // A replay that keeps only states (`memoryReducer`) skips building the effect.
  if (cut === 0 || !withEffects) return { state: next, effects: NO_EFFECTS };

  // Two literals, not a spread: every add that trims builds one, and a spread in the middle of a
  // literal costs a runtime copy (with it and a spread in planTrimOf, an add at 20 messages took
  // 2.2× as long; bench/addMessage.bench.ts).
  const removedMessages = freezeWindow(goneMessages);
  const positions = freezeWindow(gonePositions);
  const rules = freezeWindow(plan.rules as TrimRule[]);
  const removedTokens = before - plan.remainingTokens;
  const breakdown = countRules(plan.rules);
  const effect: Record<string, unknown> =
    plan.duplicateOf === undefined
      ? {
          type: 'memory/trimmed',
          reason: 'enforce_limits',
          removed: removedMessages,
          positions,
          rules,
          remaining: keptMessages.length,
          removedTokens,
          remainingTokens: plan.remainingTokens,
          breakdown,
        }
      : {
          type: 'memory/trimmed',
          reason: 'enforce_limits',
          removed: removedMessages,
          positions,
          rules,
          duplicateOf: freezeWindow(plan.duplicateOf as (number | null)[]),
          remaining: keptMessages.length,
          removedTokens,
          remainingTokens: plan.remainingTokens,
          breakdown,
        };
  // Only when some call's usage left (the total changed): the usage of the removed messages,
  // summed apart, set after the literal so that the add's literal stays one.
  if (trimmedUsage !== state.trimmedUsage) effect['usage'] = usageOfMessages(goneMessages);
  return { state: next, effects: Object.freeze([Object.freeze(effect) as MemoryEffect]) };
};
