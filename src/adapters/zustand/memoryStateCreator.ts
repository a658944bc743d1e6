import { memoryTransition, type MemoryEffect, type MemoryOptions } from 'conversation-memory';
import type { StateCreator } from 'zustand/vanilla';
import { createMemoryAs } from '../shared/createMemoryAs';
import type { MemoryStoreState } from './types';
import { watchRestore } from './unhandledRestore';

const NO_EFFECTS: readonly MemoryEffect[] = Object.freeze([]);

/**
 * The Zustand state creator behind {@link createMemoryStore}, for composing with middleware
 * (`persist`, `devtools`, `subscribeWithSelector`). The options are checked here, at once
 * (`MemoryConfigError`).
 *
 * @param memoryOptions - the memory's options, as for `createMemory`
 * @returns a state creator of {@link MemoryStoreState}
 * @example
 * ```ts
 * const store = createStore<MemoryStoreState>()(
 *   persist(memoryStateCreator({ maxMessages: 50 }), {
 *     name: 'chat',
 *     storage: memoryPersistStorage(localStorage),
 *   }),
 * );
 * ```
 */
export const memoryStateCreator = (memoryOptions?: MemoryOptions): StateCreator<MemoryStoreState> =>
  stateCreatorFor('memoryStateCreator', memoryOptions);

/**
 * {@link memoryStateCreator} for the public call named `api`, which the error of bad options
 * names (`createMemoryStore`).
 *
 * @internal
 */
export const stateCreatorFor = (
  api: string,
  memoryOptions: MemoryOptions | undefined,
): StateCreator<MemoryStoreState> => {
  const initial = createMemoryAs(api, memoryOptions);
  return (set, get, store) => {
    // Under persist with memoryPersistStorage, a stored value that cannot be restored is
    // reported when no onRehydrateStorage callback will receive it.
    watchRestore(store);
    return {
      memory: initial,
      lastEffects: NO_EFFECTS,
      dispatch: (action) => {
        const { memory } = get();
        // Throws for an invalid payload before anything is set: the store stays as it was.
        const { state, effects } = memoryTransition(memory, action);
        if (state !== memory || effects.length > 0) set({ memory: state, lastEffects: effects });
        return effects;
      },
    };
  };
};
