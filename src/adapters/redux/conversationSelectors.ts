import {
  getHistory,
  getPositions,
  getSummary,
  getTotalTokens,
  type MemoryState,
  type Message,
} from 'conversation-memory';
import { plainMemory } from './plainMemory';
import type { ConversationsState } from './types';

/** The one empty list every missing conversation's history and positions share. */
const NONE: readonly never[] = /* @__PURE__ */ Object.freeze([]);

const conversationOf = (
  state: ConversationsState,
  conversationId: string,
): MemoryState | undefined =>
  Object.hasOwn(state.conversations, conversationId)
    ? plainMemory(state.conversations[conversationId] as MemoryState)
    : undefined;

const sameIds = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The selectors of a conversations slice, on the slice state (Redux Toolkit wraps them into
 * `slice.selectors`, on the root state). Each returns what the state holds, never a copy, so the
 * same state gives the same value (`===`) and a React `useSelector` re-renders only on a change.
 * A missing conversation (or an id such as `toString`, which is no conversation) gives
 * `undefined`, a shared frozen empty array, `null` or `0`.
 * Called on an Immer draft (inside a case reducer), they read each conversation's plain state
 * (`current` of its draft, which is the state itself when nothing changed it), never the draft.
 *
 * @returns the `selectors` option of `createSlice`; `selectConversationIds` remembers its last
 *   answer, per slice
 * @internal
 */
export const conversationSelectors = () => {
  let lastRecord: ConversationsState['conversations'] | undefined;
  let lastIds: readonly string[] = NONE;
  return {
    selectConversation: conversationOf,
    selectHistory: (state: ConversationsState, conversationId: string): readonly Message[] => {
      const memory = conversationOf(state, conversationId);
      return memory === undefined ? NONE : getHistory(memory);
    },
    selectPositions: (state: ConversationsState, conversationId: string): readonly number[] => {
      const memory = conversationOf(state, conversationId);
      return memory === undefined ? NONE : getPositions(memory);
    },
    selectSummary: (state: ConversationsState, conversationId: string): string | null => {
      const memory = conversationOf(state, conversationId);
      return memory === undefined ? null : getSummary(memory);
    },
    selectTotalTokens: (state: ConversationsState, conversationId: string): number => {
      const memory = conversationOf(state, conversationId);
      return memory === undefined ? 0 : getTotalTokens(memory);
    },
    selectConversationIds: (state: ConversationsState): readonly string[] => {
      const record = state.conversations;
      if (record !== lastRecord) {
        const ids = Object.keys(record);
        if (!sameIds(ids, lastIds)) lastIds = Object.freeze(ids);
        lastRecord = record;
      }
      return lastIds;
    },
  };
};

/**
 * The selectors of a conversations slice, on the slice state (a type parameter of
 * `ConversationsSlice`; applications call `slice.selectors.*` on the root state).
 *
 * @example
 * ```ts
 * type History = ReturnType<ConversationsSelectors['selectHistory']>; // readonly Message[]
 * ```
 */
export type ConversationsSelectors = ReturnType<typeof conversationSelectors>;
