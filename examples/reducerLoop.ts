/**
 * Reducers in a plain loop, like an event-sourced agent. Every change is an action; a reducer
 * turns (state, action) into the next state plus effects (data saying what was trimmed and why).
 * The runtime below interprets effects by queueing new actions (a stand-in summarizer turns each
 * trim into a `summarize` action), and records every action it applied. Because reducers are
 * pure and deterministic, folding the recorded log over the initial state replays the run
 * exactly, and the list of states is a time machine: what did the model see at step 7?
 *
 * Run: `npx tsx examples/reducerLoop.ts`
 */
import assert from 'node:assert/strict';
import {
  addMessage,
  addMessages,
  applySummary,
  assistantMessage,
  clearMemory,
  createMemory,
  setSummary,
  toolMessage,
  userMessage,
  type MemoryEffect,
  type MemoryState,
  type Message,
  type Transition,
} from 'conversation-memory';

type Action =
  | { readonly type: 'add'; readonly message: Message }
  | { readonly type: 'addMany'; readonly messages: readonly Message[] }
  | { readonly type: 'summarize'; readonly text: string }
  | { readonly type: 'clear' };

/** The whole memory as one reducer over actions. */
const step = (state: MemoryState, action: Action): Transition => {
  switch (action.type) {
    case 'add':
      return addMessage(state, action.message);
    case 'addMany':
      return addMessages(state, action.messages);
    case 'summarize':
      return applySummary(state, action.text);
    case 'clear':
      return clearMemory(state);
  }
};

/** A deterministic stand-in for an LLM summarizer: what the trimmed user turns were about. */
const summarize = (removed: readonly Message[]): string | undefined => {
  const asked = removed.filter((m) => m.role === 'user').map((m) => m.content ?? '');
  return asked.length === 0 ? undefined : `Earlier the user asked: ${asked.join(' / ')}`;
};

const inbox: Action[] = [
  { type: 'add', message: userMessage('Book a table for two in Lisbon tonight.') },
  {
    type: 'add',
    message: assistantMessage(null, [
      { id: 'c1', name: 'find_restaurant', parameters: { city: 'Lisbon', people: 2 } },
    ]),
  },
  {
    type: 'add',
    message: toolMessage('Taberna da Rua: 20:30 free', {
      toolCallId: 'c1',
      toolName: 'find_restaurant',
    }),
  },
  { type: 'add', message: assistantMessage('Taberna da Rua has a table at 20:30. Book it?') },
  { type: 'add', message: userMessage('Yes, and a taxi at 20:00.') },
  {
    type: 'addMany',
    messages: [assistantMessage('Booked. Taxi ordered for 20:00.'), userMessage('Thanks!')],
  },
  { type: 'clear' },
];

// The runtime: apply queued actions one at a time, interpret effects, record what it applied.
const initial = createMemory({ maxMessages: 4 });
let state = initial;
const applied: Action[] = [];
const history: MemoryState[] = [initial];
const effects: MemoryEffect[] = [];
const queue = [...inbox];
for (let action = queue.shift(); action !== undefined; action = queue.shift()) {
  const transition = step(state, action);
  state = transition.state;
  applied.push(action);
  history.push(state);
  effects.push(...transition.effects);
  const detail = action.type === 'add' ? ` ${action.message.role}` : '';
  console.log(`#${applied.length} ${action.type}${detail} → ${state.messages.length} in window`);
  for (const effect of transition.effects) {
    if (effect.type === 'memory/trimmed') {
      const roles = effect.removed.map((m) => m.role).join(', ');
      console.log(`    effect: trimmed (${effect.reason}) ${roles}; ${effect.remaining} remain`);
      const text = summarize(effect.removed);
      if (effect.reason === 'enforce_limits' && text !== undefined) {
        queue.unshift({ type: 'summarize', text });
      }
    } else if (effect.type === 'memory/summaryChanged') {
      console.log(
        `    effect: summary ${JSON.stringify(effect.previous)} → ${JSON.stringify(effect.summary)}`,
      );
    }
  }
}

// Replay: a fold of the recorded actions over the initial state gives the very same result.
const replayed = applied.reduce((s, action) => step(s, action).state, initial);
assert.deepEqual(replayed, state);
console.log(`\nreplayed ${applied.length} actions: same final state`);

// Conservation: every message added is either still in the window or in exactly one trim
// effect (the final clear included), in order.
const added = inbox.flatMap((a) =>
  a.type === 'add' ? [a.message] : a.type === 'addMany' ? a.messages : [],
);
const removed = effects.flatMap((e) => (e.type === 'memory/trimmed' ? e.removed : []));
assert.deepEqual([...removed, ...state.messages], added);
console.log(
  `conservation: ${removed.length} removed + ${state.messages.length} kept = ${added.length} added`,
);

// Time travel: the window the model saw after any step.
const seventh = history[7] as MemoryState;
console.log(
  `after step 7 the model saw: ${seventh.messages.map((m) => m.content ?? `(${m.role})`).join(' | ')}`,
);
console.log(`and the summary: ${JSON.stringify(seventh.summary)}`);
assert.equal(seventh.messages.length, 4);
assert.equal(seventh.summary, 'Earlier the user asked: Book a table for two in Lisbon tonight.');
assert.deepEqual(state.messages, []);

// Identity: a change that changes nothing returns the same state object and no effects.
const same = setSummary(seventh, seventh.summary);
assert.ok(same.state === seventh && same.effects.length === 0);
console.log('setSummary with the current summary: same state object, no effects');
