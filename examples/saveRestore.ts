/**
 * Save and restore, in the reference's JSON format (what selectools' `to_dict()` writes), so a
 * conversation saved by Python loads here and the other way round.
 *
 * - `toDict(state)` → a plain JSON value → `JSON.stringify`;
 * - `fromDict(JSON.parse(text))` → `Either<MemoryDecodeError, MemoryState>`: never throws, and a
 *   `Left` lists every problem with its path;
 * - `ConversationMemory.fromDict(json)` → the object API, throwing `MemoryDecodeError` instead.
 *
 * Run: `npx tsx examples/saveRestore.ts`
 */
import assert from 'node:assert/strict';
import { either as E, function as F } from 'fp-ts';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  fromDict,
  isConversationMemoryError,
  MemoryDecodeError,
  toDict,
  getTotalTokens,
  userMessage,
  type MemoryState,
} from 'conversation-memory';

// A small file in the reference's format, as selectools writes it (every message has all eight
// keys; tool calls are written with `name`, not `tool_name`).
const SAVED = `{
  "max_messages": 8,
  "max_tokens": 200,
  "message_count": 4,
  "messages": [
    { "role": "user", "content": "What's the weather in Paris?", "image_base64": null,
      "tool_name": null, "tool_result": null, "tool_calls": null, "tool_call_id": null,
      "content_parts": null },
    { "role": "assistant", "content": "", "image_base64": null, "tool_name": null,
      "tool_result": null,
      "tool_calls": [{ "name": "get_weather", "parameters": { "city": "Paris" }, "id": "call_1",
                       "thought_signature": null }],
      "tool_call_id": null, "content_parts": null },
    { "role": "tool", "content": "Paris: 18°C, cloudy", "image_base64": null,
      "tool_name": "get_weather", "tool_result": null, "tool_calls": null,
      "tool_call_id": "call_1", "content_parts": null },
    { "role": "assistant", "content": "It is 18°C and cloudy in Paris.", "image_base64": null,
      "tool_name": null, "tool_result": null, "tool_calls": null, "tool_call_id": null,
      "content_parts": null }
  ],
  "summary": "The user is planning a trip to France."
}`;

// 1. Decode with fp-ts: fromDict returns an Either, handled without try/catch.
const describe = (result: E.Either<MemoryDecodeError, MemoryState>): string =>
  F.pipe(
    result,
    E.match(
      (error) => `Left: ${error.problems.length} problem(s):\n  - ${error.problems.join('\n  - ')}`,
      (state) =>
        `Right: ${state.messages.length} messages, ${getTotalTokens(state)} tokens (o200k_base),` +
        ` summary ${JSON.stringify(state.summary)}`,
    ),
  );

const loaded = fromDict(JSON.parse(SAVED));
console.log(`fromDict(saved file) → ${describe(loaded)}`);
assert.ok(E.isRight(loaded));
const state = loaded.right;

// 2. Saving writes the same JSON back: same keys, same order, same values.
const resaved = JSON.stringify(toDict(state), null, 2);
assert.equal(resaved, JSON.stringify(JSON.parse(SAVED), null, 2));
console.log(
  'toDict(fromDict(saved file)) writes the saved JSON back exactly: same keys, order and values',
);

// 3. A full round trip after more turns: state → JSON text → state, equal to the original.
const later = addMessage(state, userMessage('And tomorrow?')).state;
const text = JSON.stringify(toDict(later));
const restored = F.pipe(
  fromDict(JSON.parse(text)),
  E.getOrElseW((error) => {
    throw error;
  }),
);
assert.deepEqual(restored, later);
console.log(
  `round trip of ${later.messages.length} messages through ${text.length} chars of JSON: equal`,
);

// A non-default tokenizer is kept under the `conversation_memory` key, which Python ignores.
const heuristic = addMessage(
  createMemory({ maxMessages: 3, tokenizer: 'heuristic' }),
  userMessage('abcdefgh'),
).state;
const heuristicDict = toDict(heuristic);
assert.deepEqual(heuristicDict.conversation_memory, { tokenizer: 'heuristic' });
assert.deepEqual(F.pipe(fromDict(heuristicDict), E.map(getTotalTokens)), E.right(2));
console.log(`tokenizer kept on save: ${JSON.stringify(heuristicDict.conversation_memory)}`);

// 4. Invalid input is a Left naming every problem with its path; nothing throws.
const broken = {
  max_messages: 0,
  messages: [
    { role: 'USER', content: 'hi' },
    { role: 'tool', content: 42 },
  ],
};
const rejected = fromDict(broken);
console.log(`fromDict(broken) → ${describe(rejected)}`);
assert.ok(E.isLeft(rejected));
assert.ok(rejected.left.problems.some((p) => p.startsWith('messages[0].role')));

// 5. The object API: ConversationMemory.fromDict throws the same error instead.
const memory = ConversationMemory.fromDict(JSON.parse(SAVED));
assert.equal(memory.length, 4);
assert.equal(memory.summary, 'The user is planning a trip to France.');
console.log(`ConversationMemory.fromDict → ${String(memory)}`);
try {
  ConversationMemory.fromDict(broken);
  assert.fail('expected a MemoryDecodeError');
} catch (error) {
  assert.ok(error instanceof MemoryDecodeError && isConversationMemoryError(error));
  console.log(`ConversationMemory.fromDict(broken) threw ${error.name}`);
}
