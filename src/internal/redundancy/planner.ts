import type { MemoryConfig } from '../../model/config';
import { messageAt, requestsTools, type Sequence } from '../sequence';
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
import type { RedundancyPlan, RedundancyPlanner, SequencePositions } from './slot';

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
      insertEntry(index, positions.at(i), sequence.held[i] as never, api);
    }
  }
  for (let i = sequence.held.length; i < sequence.length; i++) {
    insertEntry(index, positions.at(i), messageAt(sequence, i), api);
  }
  return index;
};

/**
 * The redundancy planner: removable units, oldest first, from the index.
 *
 * A unit is a single message, or an assistant tool-call message with the tool results that follow
 * it (whatever the tool-pair policy: a group is never split). It is removable when every message
 * in it has a newer twin in the window (see `isTwin`), it lies before `bound` (the newest turn)
 * and nothing in it is pinned. Cost per unit: its messages' bucket neighbours.
 *
 * @internal
 */
export const redundancyPlannerImpl: RedundancyPlanner = {
  open(config, sequence, positions, api): RedundancyPlan {
    const index = indexFor(config, sequence, positions, api);
    const popped: number[] = [];
    // Popped messages with no twin left: a twin entering later queues them again.
    const alone = new Set<number>();
    const n = sequence.length;
    return {
      next(bound, removed, pinned) {
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
          if (removed(at) || pinned(at)) continue;
          const message = messageAt(sequence, at);
          // A tool result is removed with its call's group, which starts at an older position:
          // when that one was not removable, neither is this group.
          if (message.role === 'tool') continue;
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
            if (pinned(i)) whole = false;
            const entry = index.entries.get(positions.at(i));
            const twin =
              entry === undefined
                ? undefined
                : newestTwin(index, entry, (p) => !removed(positions.indexOf(p)));
            if (twin === undefined) {
              whole = false;
              if (i === at) alone.add(position);
            } else {
              indices.push(i);
              twins.push(twin.position);
            }
          }
          if (whole) return { indices, twins };
        }
      },
      close(gone, next) {
        for (const position of gone) removeEntry(index, position);
        for (const position of popped) {
          index.queued.delete(position);
          if (index.entries.has(position) && !alone.has(position)) queue(index, position);
        }
        if (next !== undefined) keepIndex(next, index);
      },
    };
  },
};
