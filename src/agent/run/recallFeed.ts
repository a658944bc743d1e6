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

/** The first version a stream still has, when `error` says the versions asked for were pruned. */
const prunedTo = (error: unknown): number | undefined => {
  const { code, firstVersion } = (error ?? {}) as { code?: unknown; firstVersion?: unknown };
  return code === 'CM_EVENT_PRUNED' && typeof firstVersion === 'number' ? firstVersion : undefined;
};

/**
 * A feed from the agent's event stream: the stream's actions are read once, from where the feed
 * stopped, and replayed on the feed's own copy of the state, so what other writers appended is
 * indexed too. A stream whose version went back (deleted, started again) is read again from its
 * start. A pruned stream is read from its first version: what left the window in the actions
 * pruned is not recalled, by this process or a new one. Each call first asks the stream for the
 * first action the feed read (one action read, no more): once a prune took it, the index is made
 * again from the stream's first version.
 *
 * @internal
 */
export const streamRecallFeed = (target: CheckedEventStore): RecallFeed => {
  let index = emptyRecallIndex();
  let state: MemoryState | undefined;
  let version = 0;
  /** The version the feed's state starts from: 0, or the first one a pruned stream has. */
  let start = 0;
  const { store, where } = target;
  const options = { namespace: where.namespace };
  const restart = (from: number): void => {
    state = undefined;
    index = emptyRecallIndex();
    version = 0;
    start = from;
  };
  /** The first version the stream still has when a prune took `from`; else `undefined`. */
  const prunedPast = async (from: number): Promise<number | undefined> => {
    try {
      for await (const first of store.read(where.id, { ...options, fromVersion: from })) {
        void first;
        break;
      }
      return undefined;
    } catch (error) {
      const first = prunedTo(error);
      if (first === undefined) throw error;
      return first;
    }
  };
  const begin = async (): Promise<boolean> => {
    try {
      const loaded = await store.load(where.id, { ...options, atVersion: start });
      if (loaded === null) return false;
      state = loaded.state;
      version = start;
      return true;
    } catch (error) {
      const first = prunedTo(error);
      if (first === undefined || first <= start) throw error;
      restart(first);
      return begin();
    }
  };
  /** Replays and indexes the stream's actions after `version`. */
  const readOn = async (): Promise<void> => {
    for await (const stored of store.read(where.id, { ...options, fromVersion: version + 1 })) {
      const transition = memoryTransition(state as MemoryState, stored.action);
      state = transition.state;
      index = indexTrimmed(index, transition.effects);
      version = stored.version;
    }
  };
  return {
    current: async (at) => {
      if (at !== undefined && at < version) restart(0);
      if (state !== undefined && version > start) {
        const first = await prunedPast(start + 1);
        if (first !== undefined) restart(first);
      }
      if (state === undefined && !(await begin())) return index;
      try {
        await readOn();
      } catch (error) {
        const first = prunedTo(error);
        if (first === undefined) throw error;
        // Pruned while this call read: made again from the stream's first version.
        restart(first);
        if (await begin()) await readOn();
      }
      return index;
    },
  };
};
