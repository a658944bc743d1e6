import { current, isDraft, type Draft } from '@reduxjs/toolkit';
import type { MemoryState } from 'conversation-memory';

/**
 * A conversation's state as a plain value, for the core reducers and selectors, which reject
 * Immer drafts. Reading a conversation through a case reducer's draft gives a draft even though
 * the state is frozen (Immer drafts frozen objects too). `current` of a draft that nothing has
 * changed is its original, in O(1); of a draft changed earlier in the same producer (a case
 * reducer composed by the application) it is a copy of the changed records, in which Immer copies
 * the arrays that are not frozen (in production, the window's): O(window pointers) at most. A
 * plain state (the effects listener's, a selector's on the store state) is returned as it is.
 *
 * @param memory - a conversation's state, or its draft
 * @returns the plain state
 * @internal
 */
export const plainMemory = (memory: MemoryState): MemoryState =>
  isDraft(memory) ? (current(memory as Draft<MemoryState>) as MemoryState) : memory;
