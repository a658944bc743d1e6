/**
 * A chat's memory in a Zustand store, persisted. The store's state is `{ memory, lastEffects,
 * dispatch }`; `persist` with `memoryPersistStorage` saves the memory's versioned envelope after
 * every change and restores it (checked and migrated by `decodeEnvelope`) when a page reloads.
 * Here the storage is an in-memory Map, standing in for `localStorage`.
 *
 * It also shows what happens to a save this version cannot read (written by a newer version of
 * the library): the rehydration reports it, and the saved string is never overwritten until the
 * application resets it with `store.persist.clearStorage()`.
 *
 * Run: `npx tsx examples/zustandChat.ts`
 */
import assert from 'node:assert/strict';
import { persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  assistantMessage,
  getHistory,
  getPositions,
  memoryActions,
  MemoryDecodeError,
  userMessage,
} from 'conversation-memory';
import {
  memoryPersistStorage,
  memoryStateCreator,
  type MemoryStoreState,
} from 'conversation-memory/zustand';

// A Map-backed StateStorage (localStorage has the same three methods).
const saved = new Map<string, string>();
const storage: StateStorage = {
  getItem: (name) => saved.get(name) ?? null,
  setItem: (name, value) => void saved.set(name, value),
  removeItem: (name) => void saved.delete(name),
};

/** What a page does on load: make the store, which rehydrates from storage at once. */
const openChat = () => {
  const problems: unknown[] = [];
  const store = createStore<MemoryStoreState>()(
    persist(memoryStateCreator({ maxMessages: 3, tokenizer: 'heuristic' }), {
      name: 'chat',
      storage: memoryPersistStorage(storage),
      onRehydrateStorage: () => (_state, error) => {
        if (error !== undefined) problems.push(error);
      },
    }),
  );
  return { store, problems };
};

// 1. A first visit: four messages in a window of three, so the first is trimmed.
const first = openChat().store;
const { dispatch } = first.getState();
dispatch(memoryActions.messageAdded(userMessage('Hi, I am planning a trip to Lisbon.')));
dispatch(memoryActions.messageAdded(assistantMessage('Lovely! When are you going?')));
// A message typed in the UI carries the application's id and metadata; both are saved with it.
dispatch(
  memoryActions.messageAdded({
    ...userMessage('In May, for a week.'),
    id: 'msg-3',
    metadata: { sentAt: 1_764_500_000, edited: false },
  }),
);
const effects = dispatch(memoryActions.messageAdded(assistantMessage('May is a great month.')));
assert.deepEqual(
  effects.map((effect) => effect.type),
  ['memory/trimmed'],
);
assert.equal(first.getState().lastEffects, effects);
const trimmed = effects[0]?.type === 'memory/trimmed' ? effects[0].removed.length : 0;
console.log(`dispatched 4 messages: ${trimmed} trimmed, window of 3 kept`);

const stored = JSON.parse(saved.get('chat') ?? 'null') as { schema: string; version: number };
assert.equal(stored.schema, 'conversation-memory');
console.log(`saved as envelope version ${stored.version}: ${saved.get('chat')?.length} chars`);

// 2. A reload: a new store rehydrates the same memory from the saved envelope.
const reloaded = openChat();
const memory = reloaded.store.getState().memory;
assert.deepEqual(reloaded.problems, []);
assert.deepEqual(memory, first.getState().memory);
assert.deepEqual(getPositions(memory), [1, 2, 3]);
const positions = getPositions(memory).join(', ');
// A UI keys its rows by the message's id when it has one, else by its stable position.
const rowKeys = getHistory(memory).map((m, i) => m.id ?? `pos-${getPositions(memory)[i]}`);
assert.deepEqual(rowKeys, ['pos-1', 'msg-3', 'pos-3']);
assert.deepEqual(getHistory(memory)[1]?.metadata, { sentAt: 1_764_500_000, edited: false });
console.log(
  `reloaded ${getHistory(memory).length} messages (positions ${positions}; row keys ${rowKeys.join(', ')})`,
);

// 3. A save written by a newer version: reported, and kept as it is through further changes.
const newer = JSON.stringify({ ...stored, version: stored.version + 1 });
saved.set('chat', newer);
const blocked = openChat();
const error = blocked.problems[0];
assert.ok(error instanceof MemoryDecodeError && error.kind === 'version');
blocked.store.getState().dispatch(memoryActions.messageAdded(userMessage('Hello again')));
assert.equal(saved.get('chat'), newer);
console.log(`a newer save is reported (kind "${error.kind}") and left untouched`);

// 4. The application decides to start over: clearStorage, then saving resumes.
blocked.store.persist.clearStorage();
blocked.store.getState().dispatch(memoryActions.messageAdded(userMessage('Starting over')));
assert.equal(openChat().store.getState().memory.messages.length, 2);
console.log('after clearStorage, saving resumes');
console.log(
  `zustand example: reloaded ${getHistory(memory).length} messages (positions ${positions}); a newer save was reported and left untouched until clearStorage`,
);
