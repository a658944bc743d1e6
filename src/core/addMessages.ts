import { admit } from '../internal/admit';
import { ADD, appendAndTrim } from '../internal/window';
import type { Transition } from '../model/effects';
import type { MessageInput } from '../model/messageInput';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Appends several messages, then enforces the limits **once**, as the reference's `add_many`:
 * messages added together may themselves be trimmed. `addMessages(state, [])` still enforces
 * (useful after loading a state that is over its limits).
 *
 * @param state - the current memory
 * @param messages - the messages, oldest first
 * @returns the next state and at most one `memory/trimmed` effect
 * @throws InvalidMessageError naming the first invalid message (`messages[2].role …`), or when
 *   the list cannot be read; the state is untouched
 * @throws TokenizerError when a custom tokenizer fails on a message; the state is untouched
 * @example
 * ```ts
 * const { state } = addMessages(createMemory(), [userMessage('hi'), assistantMessage('hello')]);
 * state.messages.length; // 2
 * ```
 */
export const addMessages = (state: MemoryState, messages: readonly MessageInput[]): Transition =>
  addMessagesWith(state, messages, true);

/**
 * {@link addMessages}, optionally without building its effect (`memoryReducer`'s replays), its
 * errors naming `api`, the public call or action (`ConversationMemory.addMany`).
 *
 * @internal
 */
export const addMessagesWith = (
  state: MemoryState,
  messages: readonly MessageInput[],
  withEffects: boolean,
  api = 'addMessages',
): Transition => {
  state = readState(state, api);
  const admitted = admit(state, messages, api, false);
  return appendAndTrim(state, admitted.messages, admitted.counts, ADD, withEffects, api);
};
