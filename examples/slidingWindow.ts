/**
 * The seed's sliding-window walk-through, with `max_messages=3`:
 *
 *   [USER("Hello"), ASSISTANT("Hi!"), USER("What's 2+2?")]  + ASSISTANT("4")
 *   → remove the oldest: [ASSISTANT("Hi!"), USER("What's 2+2?"), ASSISTANT("4")]
 *
 * Run: `npx tsx examples/slidingWindow.ts`
 */
import assert from 'node:assert/strict';
import {
  addMessage,
  assistantMessage,
  createMemory,
  getHistory,
  userMessage,
  type MemoryState,
  type Message,
} from 'conversation-memory';

const show = (messages: readonly Message[]): string =>
  `[${messages.map((m) => `${m.role.toUpperCase()}(${JSON.stringify(m.content)})`).join(', ')}]`;

// A memory is a plain immutable record; reducers return the next one plus effects (data).
let state: MemoryState = createMemory({ maxMessages: 3 });
console.log(`Initial: ${show(getHistory(state))}`);

const conversation = [
  userMessage('Hello'),
  assistantMessage('Hi!'),
  userMessage("What's 2+2?"),
  assistantMessage('4'),
];

let lastRemoved: readonly Message[] = [];
for (const message of conversation) {
  const before = state;
  const windowBefore = [...before.messages];
  const { state: next, effects } = addMessage(state, message);
  state = next;
  console.log(`\nAdd: ${show([message])}`);
  lastRemoved = [];
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed') continue;
    lastRemoved = effect.removed;
    console.log(`└─→ Remove oldest: ${show(effect.removed)}`);
  }
  console.log(`└─→ ${show(getHistory(state))}`);
  // Immutability: the add built a new state; the previous one still holds the same window.
  assert.deepEqual(before.messages, windowBefore);
}

// The seed's claim: at the limit, adding ASSISTANT("4") drops USER("Hello") and only it.
assert.deepEqual(
  lastRemoved.map((m) => m.content),
  ['Hello'],
);
assert.deepEqual(
  getHistory(state).map((m) => m.content),
  ['Hi!', "What's 2+2?", '4'],
);
console.log(`\nFinal window: ${show(getHistory(state))}`);
