import { admit } from '../internal/admit';
import { ADD, appendAndTrim } from '../internal/window';
import type { Transition } from '../model/effects';
import type { MessageInput } from '../model/messageInput';
import type { MemoryState } from '../model/state';
import { readState } from '../internal/readState';

/**
 * Appends one message, then enforces the limits exactly as the reference's `add`: the count rule,
 * the token rule, then the tool-pair boundary (which runs on every add, even under the limits).
 * The message's tokens are counted once, here; nothing already in the window is re-counted.
 *
 * @param state - the current memory
 * @param message - the message to add (validated and stored as a frozen copy; tool-call
 *   parameters may be any object type, checked at run time to be a JSON object)
 * @returns the next state, and one `memory/trimmed` effect listing what left, if anything did
 * @throws InvalidMessageError when `message` is not a valid `Message` or cannot be read (a getter
 *   or Proxy trap throws); the state is untouched
 * @throws TokenizerError when a custom tokenizer fails on it; the state is untouched
 * @example
 * ```ts
 * let state = createMemory({ maxMessages: 2 });
 * state = addMessage(state, userMessage('one')).state;
 * state = addMessage(state, userMessage('two')).state;
 * const { effects } = addMessage(state, userMessage('three'));
 * // effects[0].removed → [userMessage('one')]
 * ```
 */
export const addMessage = (state: MemoryState, message: MessageInput): Transition =>
  addMessageWith(state, message, true);

/**
 * {@link addMessage}, optionally without building its effect (`memoryReducer`'s replays), its
 * errors naming `api`, the public call or action (`ConversationMemory.add`, `memory/messageAdded`).
 *
 * @internal
 */
export const addMessageWith = (
  state: MemoryState,
  message: MessageInput,
  withEffects: boolean,
  api = 'addMessage',
): Transition => {
  state = readState(state, api);
  const admitted = admit(state, message, api, true);
  return appendAndTrim(state, admitted.messages, admitted.counts, ADD, withEffects, api);
};
