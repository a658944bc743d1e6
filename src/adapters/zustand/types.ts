import type { MemoryAction, MemoryEffect, MemoryState } from 'conversation-memory';
import type { StoreApi } from 'zustand/vanilla';

/**
 * The state of a memory store: the memory itself, the effects of the last dispatch that changed
 * something, and `dispatch`, which applies a memory action with `memoryTransition`.
 *
 * - `dispatch(action)` stores the new memory and the action's effects in `lastEffects`, notifies
 *   subscribers once, and returns the effects.
 * - An action that changes nothing (another store's action, an `enforceLimits` within limits)
 *   leaves the state object as it is: no notification, no write to storage, and `lastEffects`
 *   keeps the effects of the last dispatch that changed something. It returns no effects.
 * - An invalid payload throws (e.g. `InvalidMessageError`) and leaves the store untouched.
 *
 * @example
 * ```ts
 * const store = createMemoryStore({ maxMessages: 2 });
 * const effects = store.getState().dispatch(memoryActions.messageAdded(userMessage('hi')));
 * store.getState().memory.messages.length; // 1
 * ```
 */
export interface MemoryStoreState {
  readonly memory: MemoryState;
  readonly lastEffects: readonly MemoryEffect[];
  readonly dispatch: (action: MemoryAction) => readonly MemoryEffect[];
}

/**
 * A vanilla Zustand store of {@link MemoryStoreState} (what {@link createMemoryStore} returns).
 * Use it from React with `useStore(store, selector)`.
 *
 * @example
 * ```ts
 * const store: MemoryStore = createMemoryStore();
 * const unsubscribe = store.subscribe((state) => render(state.memory));
 * ```
 */
export type MemoryStore = StoreApi<MemoryStoreState>;

/**
 * What {@link memoryPersistStorage} persists and restores: the store's `memory`, and nothing
 * else (`dispatch` and `lastEffects` are never stored).
 *
 * @example
 * ```ts
 * const persisted: PersistedMemory = { memory: createMemory() };
 * ```
 */
export interface PersistedMemory {
  readonly memory: MemoryState;
}
