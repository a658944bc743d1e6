import { memoryTransition } from '../../core/memoryTransition';
import type { ConversationMemory } from '../../facade/ConversationMemory';
import type { MemoryState } from '../../model/state';
import { emptyRecallIndex, type RecallIndex } from '../../view/recall/recallIndex';
import { indexTrimmed } from '../../view/recall/recallSources';
import type { CheckedEventStore } from '../checkAgentOptions';

/**
 * Where an agent's recall finds the messages that left its window: kept up to date as they
 * leave, never rebuilt per call.
 *
 * @internal
 */
export interface RecallFeed {
  /** The index as of now (`version`: the stream's version the run's memory is at, if any). */
  current(version: number | undefined): Promise<RecallIndex>;
}

/**
 * A feed from the memory itself (a session, or a memory without a store): every message a
 * `memory/trimmed` effect reports is indexed, a clear starts over, and so does a state whose
 * positions went back (a session deleted and started again), so nothing of a conversation that
 * is gone comes back. It covers what this agent saw leave, in this process.
 *
 * @internal
 */
export const memoryRecallFeed = (memory: ConversationMemory): RecallFeed => {
  let index = emptyRecallIndex();
  let next = memory.state.nextPosition;
  memory.subscribe((effects, state) => {
    if (state.nextPosition < next) index = emptyRecallIndex();
    next = state.nextPosition;
    index = indexTrimmed(index, effects);
  });
  return { current: () => Promise.resolve(index) };
};

/**
 * A feed from the agent's event stream: the stream's actions are read once, from where the feed
 * stopped, and replayed on the feed's own copy of the state, so what other writers appended is
 * indexed too. A stream whose version went back (deleted, started again) is read again from its
 * start.
 *
 * @internal
 */
export const streamRecallFeed = (target: CheckedEventStore): RecallFeed => {
  let index = emptyRecallIndex();
  let state: MemoryState | undefined;
  let version = 0;
  const { store, where } = target;
  const options = { namespace: where.namespace };
  return {
    current: async (at) => {
      if (at !== undefined && at < version) {
        state = undefined;
        index = emptyRecallIndex();
        version = 0;
      }
      if (state === undefined) {
        const initial = await store.load(where.id, { ...options, atVersion: 0 });
        if (initial === null) return index;
        state = initial.state;
      }
      for await (const stored of store.read(where.id, { ...options, fromVersion: version + 1 })) {
        const transition = memoryTransition(state, stored.action);
        state = transition.state;
        index = indexTrimmed(index, transition.effects);
        version = stored.version;
      }
      return index;
    },
  };
};
