import {
  configureStore,
  createListenerMiddleware,
  type ListenerErrorHandler,
} from '@reduxjs/toolkit';
import type { MemoryOptions } from 'conversation-memory';
import { createConversationsSlice } from 'conversation-memory/redux';

/**
 * A real Redux Toolkit store as an application builds one: a conversations slice at its
 * `reducerPath`, the default middleware (thunk, serializable and immutable checks: vitest runs
 * with NODE_ENV=test, so they are on) and the listener middleware prepended.
 */
export const makeChatStore = (
  defaultConfig: MemoryOptions = { maxMessages: 2, tokenizer: 'heuristic' },
  onError?: ListenerErrorHandler,
) => {
  const listener = createListenerMiddleware(onError === undefined ? {} : { onError });
  const chats = createConversationsSlice({ defaultConfig });
  const store = configureStore({
    reducer: { [chats.reducerPath]: chats.reducer },
    middleware: (getDefault) => getDefault().prepend(listener.middleware),
  });
  return { store, chats, listener };
};

/**
 * The `console.warn` calls of a spy, less Redux Toolkit's timing notes (`SerializableStateInvariantMiddleware
 * took 42ms, which is more than the warning threshold of 32ms`): those say how long a dev check took
 * on this (shared, sometimes loaded) machine, not that anything was wrong with the state. What the
 * checks find wrong is reported with `console.error`, which the tests watch whole.
 */
export const warningsBesidesTiming = (spy: { mock: { calls: unknown[][] } }): unknown[][] =>
  spy.mock.calls.filter(
    ([text]) =>
      !(
        typeof text === 'string' &&
        /took \d+ms, which is more than the warning threshold/.test(text)
      ),
  );
