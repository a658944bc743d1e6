import {
  addMessages,
  createMemory,
  type MemoryOptions,
  type MemoryState,
  type Message,
  setSummary,
  type StoredAction,
} from 'conversation-memory';

/**
 * A state with some of everything a session store must keep exactly: messages of both roles, a
 * summary and a config that is not the default.
 *
 * @example
 * ```ts
 * await store.save('s1', sampleState(['hello', 'hi there']));
 * ```
 */
export const sampleState = (texts: readonly string[] = ['hello', 'hi there']): MemoryState => {
  let state = createMemory({ maxMessages: 50, tokenizer: 'heuristic', toolPairs: 'strict' });
  state = addMessages(
    state,
    texts.map((text, i): Message => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text })),
  ).state;
  return setSummary(state, 'earlier: greetings').state;
};

/**
 * The config the event-store suite creates its streams with (a small window, the heuristic
 * tokenizer, strict tool pairs: not the default, so a store that drops it is seen).
 *
 * @example
 * ```ts
 * await store.append('s1', actions, { expectedVersion: 0, config: CONFIG });
 * ```
 */
export const CONFIG: MemoryOptions = {
  maxMessages: 5,
  tokenizer: 'heuristic',
  toolPairs: 'strict',
};

/**
 * Every entry of an async iterable (an event store's `read`).
 *
 * @example
 * ```ts
 * const entries = await collect(store.read('s1')); // [{ version: 1, action }, …]
 * ```
 */
export const collect = async (entries: AsyncIterable<StoredAction>): Promise<StoredAction[]> => {
  const all: StoredAction[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
};
