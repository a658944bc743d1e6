/**
 * A naive Immer reducer, as many applications write one: the state holds the conversation's
 * messages (plain objects), the system prompt is kept apart and put first in the window, and each
 * turn runs
 *
 * ```ts
 * produce(state, (draft) => {
 *   draft.messages.push(...turn);
 *   while (SYSTEM_TOKENS + countAll(draft.messages) > budget) draft.messages.shift();
 * });
 * ```
 *
 * recounting the whole window (through the draft) with the shared counter on every iteration. The
 * untimed history replay counts through a cache instead, which gives the same counts, hence the
 * same state, in a fraction of the time.
 */
import { produce, type Draft } from 'immer';
import type { Message } from '../../../src/entries/index';
import type { Instance, System } from '../system';
import { SYSTEM_PROMPT, SYSTEM_TOKENS, countMessage } from '../workload';
import { viewMessages } from './conversationMemory';

interface ChatState {
  readonly messages: readonly Message[];
}

type Count = (message: Message) => number;

const cache = new Map<string, number>();
const countCached: Count = (message) => {
  const key = `${message.content ?? ''}\u0000${JSON.stringify(message.toolCalls ?? [])}`;
  let count = cache.get(key);
  if (count === undefined) {
    count = countMessage(message);
    cache.set(key, count);
  }
  return count;
};

const reducer =
  (budget: number, count: Count) =>
  (state: ChatState, turn: readonly Message[]): ChatState =>
    produce(state, (draft) => {
      draft.messages.push(...(turn as Draft<Message>[]));
      const countAll = (): number => {
        let total = 0;
        for (const message of draft.messages) total += count(message as Message);
        return total;
      };
      while (draft.messages.length > 0 && SYSTEM_TOKENS + countAll() > budget) {
        draft.messages.shift();
      }
    });

/** The Immer row. */
export const immerNaive = (): System => ({
  label: 'Immer reducer, naive (recounts its window)',
  async prepare(scenario, turns) {
    // Immer freezes what enters its state: its own copies, so no other system sees frozen input.
    const timed = structuredClone(turns.timed) as readonly (readonly Message[])[];
    const replay = reducer(scenario.budget, countCached);
    let warm: ChatState = { messages: [] };
    for (const turn of structuredClone(turns.warm)) warm = replay(warm, turn);
    const reduce = reducer(scenario.budget, countMessage);
    const system: Message = Object.freeze({ role: 'system', content: SYSTEM_PROMPT });
    return {
      fresh(): Instance {
        let state = warm;
        return {
          step(k) {
            state = reduce(state, timed[k] ?? []);
            return [system, ...state.messages];
          },
        };
      },
      view: viewMessages,
    };
  },
});
