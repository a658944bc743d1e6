/**
 * Tool-pair-aware trimming. Providers reject a history that starts with a tool result whose
 * assistant tool call is gone. So after the sliding window trims, the memory also drops leading
 * tool results and assistant tool-call messages (keeping at least one message), exactly as the
 * reference does: a multi-call tool turn is dropped as a whole rather than cut so that one of its
 * results starts the window. Each trim says which rule removed how many in `effect.breakdown`.
 *
 * Run: `npx tsx examples/toolPairs.ts`
 */
import assert from 'node:assert/strict';
import {
  addMessage,
  addMessages,
  assistantMessage,
  ConversationMemory,
  createMemory,
  toolMessage,
  userMessage,
  type MemoryEffect,
  type MemoryState,
  type Message,
  type TrimBreakdown,
} from 'conversation-memory';

/** A short, exact name for a message: `assistant→call_1+call_2`, `tool(call_1)`, `user:"Hi"`. */
const key = (m: Message): string => {
  if (m.toolCalls !== undefined) return `assistant→${m.toolCalls.map((c) => c.id).join('+')}`;
  if (m.role === 'tool') return `tool(${m.toolCallId ?? '?'})`;
  return `${m.role}:"${m.content ?? ''}"`;
};
/** The same, shortened for display. */
const label = (m: Message): string => {
  const text = key(m);
  return text.length > 28 ? `${text.slice(0, 26)}…"` : text;
};
const show = (messages: readonly Message[]): string => `[${messages.map(label).join(', ')}]`;

/** The window may start with neither a tool result nor a tool call, unless it is alone. */
const assertSafeStart = (state: MemoryState): void => {
  const [first] = state.messages;
  if (first === undefined || state.messages.length === 1) return;
  assert.notEqual(first.role, 'tool', `window starts with a tool result: ${show(state.messages)}`);
  assert.equal(
    first.toolCalls,
    undefined,
    `window starts with a tool call: ${show(state.messages)}`,
  );
};

/** Prints a trim effect and returns its breakdown (undefined when nothing was trimmed). */
const report = (effects: readonly MemoryEffect[]): TrimBreakdown | undefined => {
  for (const effect of effects) {
    if (effect.type !== 'memory/trimmed' || effect.reason !== 'enforce_limits') continue;
    const { messageLimit, tokenLimit, toolPairBoundary } = effect.breakdown;
    console.log(`    removed ${show(effect.removed)}`);
    console.log(
      `    breakdown: messageLimit=${messageLimit} tokenLimit=${tokenLimit} toolPairBoundary=${toolPairBoundary}`,
    );
    return effect.breakdown;
  }
  return undefined;
};

const parisKyoto: Message[] = [
  userMessage('Weather in Paris and Kyoto?'),
  assistantMessage(null, [
    { id: 'call_1', name: 'get_weather', parameters: { city: 'Paris' } },
    { id: 'call_2', name: 'get_weather', parameters: { city: 'Kyoto' } },
  ]),
  toolMessage('Paris: 18°C, cloudy', { toolCallId: 'call_1', toolName: 'get_weather' }),
  toolMessage('Kyoto: 24°C, sunny', { toolCallId: 'call_2', toolName: 'get_weather' }),
  assistantMessage('Paris is 18°C and cloudy; Kyoto is 24°C and sunny.'),
];
const lisbon: Message[] = [
  userMessage('And Lisbon?'),
  assistantMessage(null, [{ id: 'call_3', name: 'get_weather', parameters: { city: 'Lisbon' } }]),
  toolMessage('Lisbon: 21°C, windy', { toolCallId: 'call_3', toolName: 'get_weather' }),
  assistantMessage('Lisbon is 21°C and windy.'),
  userMessage('Thanks!'),
];

// 1. One message at a time, maxMessages = 5.
console.log('1. addMessage one by one, maxMessages = 5');
let state = createMemory({ maxMessages: 5 });
const breakdowns: TrimBreakdown[] = [];
for (const message of [...parisKyoto, ...lisbon]) {
  const countOnly = [...state.messages, message].slice(-state.config.maxMessages);
  const result = addMessage(state, message);
  state = result.state;
  console.log(`+ ${label(message)}`);
  const breakdown = report(result.effects);
  if (breakdown !== undefined) breakdowns.push(breakdown);
  if (breakdown !== undefined && breakdown.toolPairBoundary > 0) {
    console.log(`    (the count rule alone would have kept ${show(countOnly)})`);
  }
  console.log(`  window ${show(state.messages)}`);
  assertSafeStart(state);
}
// "And Lisbon?" (6 > 5) drops the first question by count; the window would then start with
// the 2-call tool turn, so the boundary rule drops the call and both of its results.
assert.deepEqual(breakdowns, [
  { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 3, startOn: 0 },
  { messageLimit: 1, tokenLimit: 0, toolPairBoundary: 0, startOn: 0 },
]);
assert.deepEqual(state.messages.map(key), [
  'user:"And Lisbon?"',
  'assistant→call_3',
  'tool(call_3)',
  'assistant:"Lisbon is 21°C and windy."',
  'user:"Thanks!"',
]);

// 2. A whole tool turn added at once (as an agent does with add_many), maxMessages = 3: the
// count rule alone would start the window with the two results of call_1 and call_2.
console.log('\n2. addMessages with a whole tool turn, maxMessages = 3');
const batch = addMessages(createMemory({ maxMessages: 3 }), parisKyoto);
console.log(`+ ${show(parisKyoto)}`);
console.log(`    (the count rule alone would have kept ${show(parisKyoto.slice(-3))})`);
const batchBreakdown = report(batch.effects);
console.log(`  window ${show(batch.state.messages)}`);
assert.deepEqual(batchBreakdown, {
  messageLimit: 2,
  tokenLimit: 0,
  toolPairBoundary: 2,
  startOn: 0,
});
assert.deepEqual(batch.state.messages, [parisKyoto[4]]);

// 3. Loading reference JSON runs the same boundary fix (not the limits), as the reference's
// from_dict does: [tool, assistant→call, user] loads as [user].
console.log('\n3. ConversationMemory.fromDict fixes the boundary of a saved window');
const loaded = ConversationMemory.fromDict({
  max_messages: 10,
  messages: [
    { role: 'tool', content: 'Kyoto: 24°C, sunny', tool_call_id: 'call_2' },
    { role: 'assistant', content: '', tool_calls: [{ name: 'get_weather', id: 'call_3' }] },
    { role: 'user', content: 'Thanks!' },
  ],
});
console.log(`  loaded window ${show(loaded.getHistory())}`);
assert.deepEqual(loaded.getHistory().map(key), ['user:"Thanks!"']);

console.log('\nno window of two or more messages started with a tool result or a tool call');
