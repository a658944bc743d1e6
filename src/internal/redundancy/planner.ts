import type { MemoryConfig } from '../../model/config';
import { embedderProblem } from '../../similarity/embedders';
import { describeValue } from '../../util/describeValue';
import { indexOfPosition, positionAtIndex } from '../positionSearch';
import { messageAt, requestsTools, type Sequence } from '../sequence';
import type { PlanPlace } from '../trimPlan';
import { heapPop } from './minHeap';
import {
  emptyIndex,
  insertEntry,
  keepIndex,
  newestTwin,
  queue,
  type RedundancyIndex,
  removeEntry,
  takeIndex,
} from './redundancyIndex';
import type { RedundancyPlan, RedundancyPlanner } from './slot';

/** Positions of a sequence's messages: `at(i)` for an index, `indexOf(p)` (-1 when absent). */
interface SequencePositions {
  at(index: number): number;
  indexOf(position: number): number;
}

/** The positions of `sequence`: held ones from the runs (binary search), incoming from `start`. */
const positionsOf = (sequence: Sequence, place: PlanPlace): SequencePositions => {
  const held = sequence.held.length;
  const { runs, start } = place;
  return {
    at: (i) => (i < held ? positionAtIndex(runs, i) : start + (i - held)),
    indexOf: (position) => {
      if (position < start) return indexOfPosition(runs, held, position);
      const index = position - start + held;
      return index < sequence.length ? index : -1;
    },
  };
};

/**
 * The index for a trim of `sequence`: the held window's (taken over from the state that owns it,
 * or built in one pass when there is none: a time-travel jump, a loaded file, a new config), with
 * the incoming messages entered.
 */
const indexFor = (
  config: MemoryConfig,
  sequence: Sequence,
  positions: SequencePositions,
  api: string,
): RedundancyIndex => {
  let index = takeIndex(sequence.held, config);
  if (index === undefined) {
    index = emptyIndex(config);
    for (let i = 0; i < sequence.held.length; i++) {
      insertEntry(index, positions.at(i), messageAt(sequence, i), api);
    }
  }
  for (let i = sequence.held.length; i < sequence.length; i++) {
    insertEntry(index, positions.at(i), messageAt(sequence, i), api);
  }
  return index;
};

/**
 * The newest turn's first index: the newest user message's (the index tracks it), or `last` when
 * it is later or gone (a user message leaves only by a front rule, after every older message).
 */
const turnBound = (
  index: RedundancyIndex,
  positions: SequencePositions,
  last: number,
  removed: (i: number) => boolean,
): number => {
  const at = index.lastUser < 0 ? -1 : positions.indexOf(index.lastUser);
  return at < 0 || removed(at) ? last : Math.min(last, at);
};

const thresholdProblem = (value: unknown, name: string): string[] =>
  typeof value === 'number' && value > 0 && value <= 1
    ? []
    : [`${name} must be a number above 0 and at most 1, received ${describeValue(value)}`];

/**
 * The redundancy planner: removable units, oldest first, from the index.
 *
 * A unit is a single message, or an assistant tool-call message with the tool results that follow
 * it (whatever the tool-pair policy: a group is never split). It is removable when every message
 * in it has a newer twin in the window (see `isTwin`), it lies before the newest turn and nothing
 * in it is pinned. Cost per unit: its messages' bucket neighbours; per add: the new messages'
 * buckets (sub-linear in the window).
 *
 * @internal
 */
export const redundancyPlannerImpl: RedundancyPlanner = {
  optionProblems(fields, names) {
    const problems: string[] = [];
    if (fields.pruneThreshold !== undefined) {
      const name = names === 'options' ? 'pruneThreshold' : 'prune_threshold';
      problems.push(...thresholdProblem(fields.pruneThreshold, name));
    }
    if (fields.embedder !== undefined) {
      const problem = embedderProblem(fields.embedder);
      if (problem !== undefined) problems.push(`embedder ${problem}`);
    }
    return problems;
  },

  open(config, sequence, place): RedundancyPlan {
    const positions = positionsOf(sequence, place);
    const index = indexFor(config, sequence, positions, place.api);
    const popped: number[] = [];
    // Popped units not removable now: a member's new twin queues them again.
    const alone = new Set<number>();
    const n = sequence.length;

    /** The next removable unit before `bound`, or `undefined`. */
    const next = (
      bound: number,
      removed: (index: number) => boolean,
      pinned: (index: number) => boolean,
    ): { indices: number[]; twins: number[] } | undefined => {
      for (;;) {
        const position = index.heap[0];
        if (position === undefined) return undefined;
        if (!index.entries.has(position)) {
          heapPop(index.heap);
          index.queued.delete(position);
          continue;
        }
        const at = positions.indexOf(position);
        if (at >= bound) return undefined;
        heapPop(index.heap);
        popped.push(position);
        const message = messageAt(sequence, at);
        // Pinned (for this config), or a tool result (queued by an older index): never planned
        // from here. A unit is queued at its first message.
        if (pinned(at) || message.role === 'tool') {
          alone.add(position);
          continue;
        }
        if (removed(at)) continue;
        let end = at + 1;
        if (requestsTools(message)) {
          while (end < n && messageAt(sequence, end).role === 'tool') end++;
        }
        if (end > bound) continue;
        const indices: number[] = [];
        const twins: number[] = [];
        let whole = true;
        for (let i = at; i < end && whole; i++) {
          if (removed(i)) continue;
          const entry = index.entries.get(positions.at(i));
          const twin =
            entry === undefined || pinned(i)
              ? undefined
              : newestTwin(index, entry, (p) => !removed(positions.indexOf(p)));
          if (twin === undefined) {
            // Not removable now: queued again when a member gets a new twin.
            whole = false;
            alone.add(position);
          } else {
            indices.push(i);
            twins.push(twin.position);
          }
        }
        if (whole) return { indices, twins };
      }
    };

    return {
      removeWhile(over, last, removed, pinned, remove) {
        const bound = turnBound(index, positions, last, removed);
        while (over()) {
          const unit = next(bound, removed, pinned);
          if (unit === undefined) return;
          unit.indices.forEach((i, k) => remove(i, unit.twins[k] as number));
        }
      },
      close(gone, keepFor) {
        for (const position of gone) removeEntry(index, position);
        for (const position of popped) {
          index.queued.delete(position);
          if (index.entries.has(position) && !alone.has(position)) queue(index, position);
        }
        if (keepFor !== undefined) keepIndex(keepFor, index);
      },
    };
  },
};
