/**
 * A Redux Toolkit chat store with two threads. Each thread is a conversation memory inside one
 * slice (`createConversationsSlice`), changed by the library's pure reducers; its window is kept
 * within the thread's limits, and every trim reaches the outside as data, through Redux Toolkit's
 * listener middleware (`startMemoryEffectsListening`): here a listener that prints each trim and
 * archives the trimmed messages per thread. The store runs with the default middleware, so Redux
 * Toolkit's serializable and immutable checks watch every action.
 *
 * Run: `npx tsx examples/reduxChat.ts`
 */
import assert from 'node:assert/strict';
import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import {
  assistantMessage,
  toolMessage,
  type Message,
  type MessageInput,
} from 'conversation-memory';
import { createConversationsSlice, startMemoryEffectsListening } from 'conversation-memory/redux';

const listener = createListenerMiddleware();
const chats = createConversationsSlice({
  name: 'chats',
  defaultConfig: { maxMessages: 4, tokenizer: 'heuristic' },
});
const store = configureStore({
  reducer: { [chats.reducerPath]: chats.reducer },
  middleware: (getDefault) => getDefault().prepend(listener.middleware),
});
type RootState = ReturnType<typeof store.getState>;

/** A short name for a message: `user:"Hi"`, `assistant→c1`, `tool(c1)`. */
const label = (m: Message): string => {
  if (m.toolCalls !== undefined) return `assistant→${m.toolCalls.map((c) => c.id).join('+')}`;
  if (m.role === 'tool') return `tool(${m.toolCallId ?? '?'})`;
  return `${m.role}:"${m.content ?? ''}"`;
};

// The effects listener: prints each trim and keeps what left each thread's window.
const archive = new Map<string, Message[]>();
const trims: string[] = [];
startMemoryEffectsListening(listener, chats, (effect, { conversationId }) => {
  if (effect.type !== 'memory/trimmed') return;
  trims.push(`${conversationId}: ${effect.removed.map(label).join(', ')}`);
  archive.set(conversationId, [...(archive.get(conversationId) ?? []), ...effect.removed]);
  console.log(
    `  [${conversationId}] trimmed (${effect.reason}) positions ${effect.positions.join(', ')}: ` +
      `${effect.removed.map(label).join(', ')}; ${effect.remaining} remain`,
  );
});

// Two threads: a trip plan with the default window of 4, and a maths helper with a window of 3
// under the strict tool-pair policy (a tool call and its result leave together).
store.dispatch(chats.actions.conversationCreated({ conversationId: 'trip' }));
store.dispatch(
  chats.actions.conversationCreated({
    conversationId: 'maths',
    config: { maxMessages: 3, toolPairs: 'strict' },
  }),
);

/**
 * A message typed in the UI: it carries the application's own id (its database row) and
 * metadata, which the memory keeps as they are, never counts and never sends to a model.
 */
let row = 0;
const typed = (content: string): MessageInput => ({
  role: 'user',
  content,
  id: `row-${++row}`,
  metadata: { sentAt: 1_764_500_000 + row },
});

/** The key a UI renders a message's row with: its id when it has one, else its stable position. */
const rowKey = (message: Message, position: number): string => message.id ?? `pos-${position}`;

const sent = new Map<string, Message[]>();
const say = (conversationId: string, ...messages: MessageInput[]): void => {
  const action = chats.actions.messagesAdded({ conversationId, messages });
  sent.set(conversationId, [...(sent.get(conversationId) ?? []), ...action.payload.messages]);
  console.log(`${conversationId} += ${action.payload.messages.map(label).join(', ')}`);
  store.dispatch(action);
};

say('trip', typed('Plan a weekend in Lisbon.'), assistantMessage('Day 1: Alfama.'));
say('maths', typed('What is 6 × 7?'));
say('trip', typed('And day 2?'), assistantMessage('Day 2: Belém.'));
const mathsBefore = chats.selectors.selectHistory(store.getState(), 'maths');
say('trip', typed('Where to eat?'), assistantMessage('Try a tasca in Mouraria.'));
// Isolation: the trip's trim left the maths thread as it was (the very same array).
assert.equal(chats.selectors.selectHistory(store.getState(), 'maths'), mathsBefore);
say(
  'maths',
  assistantMessage(null, [{ id: 'c1', name: 'multiply', parameters: { a: 6, b: 7 } }]),
  toolMessage('42', { toolCallId: 'c1', toolName: 'multiply' }),
  assistantMessage('6 × 7 = 42.'),
);
say('maths', typed('Thanks!'));

// What each thread's model sees now, with the keys a UI renders its rows by: the message's own id
// when it has one, else its stable position (which never changes as the window slides).
const state: RootState = store.getState();
const rows = new Map<string, string[]>();
for (const id of chats.selectors.selectConversationIds(state)) {
  const history = chats.selectors.selectHistory(state, id);
  const positions = chats.selectors.selectPositions(state, id);
  rows.set(
    id,
    history.map((m, i) => rowKey(m, positions[i] as number)),
  );
  console.log(
    `${id} window: ${history.map((m, i) => `[${rows.get(id)?.[i]}] ${label(m)}`).join(' | ')}`,
  );
}

// Claims, checked.
const trip = chats.selectors.selectHistory(state, 'trip');
const maths = chats.selectors.selectHistory(state, 'maths');
assert.deepEqual(chats.selectors.selectPositions(state, 'trip'), [2, 3, 4, 5]);
assert.deepEqual(rows.get('trip'), ['row-3', 'pos-3', 'row-4', 'pos-5']);
assert.deepEqual(rows.get('maths'), ['pos-3', 'row-5']);
// The application's metadata came through the store as it was typed.
assert.deepEqual(trip[2]?.metadata, { sentAt: 1_764_500_004 });
assert.deepEqual(maths.map(label), ['assistant:"6 × 7 = 42."', 'user:"Thanks!"']);
// The strict policy removed the tool call and its result together, never one without the other.
assert.deepEqual(trims, [
  'trip: user:"Plan a weekend in Lisbon.", assistant:"Day 1: Alfama."',
  'maths: user:"What is 6 × 7?"',
  'maths: assistant→c1, tool(c1)',
]);
// Conservation, per thread: what was trimmed, then what is kept, is everything sent, in order.
for (const [id, messages] of sent) {
  const kept = chats.selectors.selectHistory(state, id);
  assert.deepEqual([...(archive.get(id) ?? []), ...kept], messages);
}
// Selectors hand out the state's own arrays: the same object until the thread changes.
assert.equal(chats.selectors.selectHistory(store.getState(), 'trip'), trip);
// The state is plain data.
assert.deepEqual(JSON.parse(JSON.stringify(state)), state);

const total = [...sent.values()].reduce((n, messages) => n + messages.length, 0);
const archived = [...archive.values()].reduce((n, messages) => n + messages.length, 0);
console.log(
  `redux chat: 2 threads, ${trims.length} trims printed by the listener, ${archived} messages archived + ${total - archived} in windows = ${total} sent`,
);

// Deleting a thread reports its messages as a clear; a late reply for it is ignored (no thread
// comes back from the dead).
store.dispatch(chats.actions.conversationRemoved({ conversationId: 'trip' }));
const afterRemoval = store.getState();
store.dispatch(
  chats.actions.messageAdded({ conversationId: 'trip', message: assistantMessage('Late reply.') }),
);
assert.equal(store.getState(), afterRemoval);
assert.deepEqual(chats.selectors.selectConversationIds(store.getState()), ['maths']);
assert.equal(archive.get('trip')?.length, 6);
console.log('trip removed: its 4 messages reported as a clear; a late reply for it was ignored');
