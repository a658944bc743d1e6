import type { ConversationMemory } from '../../facade/ConversationMemory';
import type { MemoryState } from '../../model/state';

/**
 * What an agent keeps between runs about the session (or event stream) it serves, so that one
 * its store does not have (never saved, deleted, expired) starts as it would for a new agent made
 * with the same options, never from what the memory held of a session that is gone.
 *
 * - The **start** is the memory's state the first time the agent loads (its first run, or
 *   `clearMemory`), before any load replaced it: an empty memory with the provider-safe policy
 *   when the agent made the memory, else the memory given, with whatever it held then (a pinned
 *   system message, say). A session is absent from the store → the memory starts from it.
 * - **held** tells whether the memory holds a session the store had (loaded, or saved, since the
 *   store last had none), so a session that vanished is told apart from one never stored.
 *
 * The agent's runs take turns on its memory, so one object serves all of them.
 *
 * @internal
 */
export class SessionStart {
  #state: MemoryState | undefined;

  /** Whether the memory holds a stored session (loaded or saved since the store last had none). */
  held = false;

  /**
   * The state an absent session starts from: `memory`'s state the first time this is asked
   * (ask before the first load), the same state every time after.
   *
   * @param memory - the agent's memory
   * @returns the start
   */
  of(memory: ConversationMemory): MemoryState {
    this.#state ??= memory.state;
    return this.#state;
  }
}
