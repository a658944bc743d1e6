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
