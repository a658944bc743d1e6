/**
 * The browser side of test/adapters/zustand.indexedDb.browser.test.ts: a Zustand store of one
 * conversation persisted with `createIndexedDbStorage`, driven by the test through `window.chat`.
 * Bundled by esbuild from the sources (tsconfig's paths) with the real `zustand`.
 */
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import { memoryActions, userMessage } from 'conversation-memory';
import {
  createIndexedDbStorage,
  memoryStateCreator,
  type MemoryStoreState,
} from 'conversation-memory/zustand';

/** What the test reads and calls. */
interface ChatHandle {
  /** Errors the storage reported (their names), and failed restores. */
  readonly errors: string[];
  /** How many IndexedDB write transactions the page opened. */
  transactions: number;
  open(name: string): Promise<void>;
  say(text: string): void;
  contents(): string[];
  flush(): Promise<void>;
}

declare global {
  interface Window {
    chat: ChatHandle;
  }
}

// Count the page's write transactions, as the storage opens them.
const transaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: never[]) {
  if ((args as unknown[])[1] === 'readwrite') window.chat.transactions++;
  return (transaction as (...a: never[]) => IDBTransaction).apply(this, args);
} as typeof transaction;

let store: ReturnType<typeof make> | undefined;
const errors: string[] = [];

const make = (name: string) =>
  createStore<MemoryStoreState>()(
    persist(memoryStateCreator({ maxMessages: 50, tokenizer: 'heuristic' }), {
      name,
      storage: createIndexedDbStorage({
        databaseName: 'chat-test',
        batchDelayMs: 30,
        onError: (error) => errors.push(String((error as { name?: unknown })?.name ?? error)),
      }),
      onRehydrateStorage: () => (_state, error) => {
        if (error !== undefined) errors.push(`restore: ${String((error as Error).message)}`);
      },
    }),
  );

window.chat = {
  errors,
  transactions: 0,
  open: async (name) => {
    store = make(name);
    await store.persist.rehydrate();
  },
  say: (text) => {
    store?.getState().dispatch(memoryActions.messageAdded(userMessage(text)));
  },
  contents: () => (store?.getState().memory.messages ?? []).map((m) => String(m.content)),
  flush: () => new Promise((resolve) => setTimeout(resolve, 200)),
};
