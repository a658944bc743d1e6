/**
 * Time travel through a recorded conversation: the conversation is an event log (the initial
 * config plus every action), so any step can be looked at again, what was trimmed there and why,
 * and a branch can start from any step. The log is stored as a versioned envelope and read back.
 *
 * Run: `npx tsx examples/timeTravel.ts`
 */
import assert from 'node:assert/strict';
import {
  appendAction,
  assistantMessage,
  createEventLog,
  decodeEnvelope,
  encodeEnvelope,
  fork,
  getHistory,
  logActions,
  memoryActions,
  replay,
  seek,
  timeline,
  toolMessage,
  userMessage,
  type MemoryAction,
} from 'conversation-memory';

const recorded: MemoryAction[] = [
  memoryActions.messageAdded(userMessage('Book me a table in Lyon for Friday.')),
  memoryActions.messageAdded(
    assistantMessage(null, [{ id: 'c1', name: 'find_tables', parameters: { city: 'Lyon' } }]),
  ),
  memoryActions.messageAdded(
    toolMessage('Le Bouchon 20:00, Chez Paul 21:00', { toolCallId: 'c1' }),
  ),
  memoryActions.messageAdded(assistantMessage('Le Bouchon at 20:00 or Chez Paul at 21:00?')),
  memoryActions.messageAdded(userMessage('Le Bouchon, please.')),
  memoryActions.messageAdded(assistantMessage('Booked: Le Bouchon, Friday 20:00.')),
  memoryActions.summaryApplied('The user booked Le Bouchon in Lyon for Friday 20:00.'),
  memoryActions.messageAdded(userMessage('Thanks!')),
];

let log = createEventLog(
  { maxMessages: 4, tokenizer: 'heuristic', toolPairs: 'strict' },
  { snapshotEvery: 4 },
);
for (const action of recorded) log = appendAction(log, action);

// Every step: the window the model would see, and what left it there and why.
for (const { step, action, state, effects } of timeline(log)) {
  const trims = effects.flatMap((e) =>
    e.type === 'memory/trimmed' && e.reason === 'enforce_limits'
      ? e.positions.map((p, i) => `#${p} by ${e.rules[i]}`)
      : [],
  );
  console.log(
    `step ${step} ${action.type.padEnd(21)} window ${state.messages.length}/4, ${state.totalTokens} tokens` +
      (trims.length > 0 ? `; trimmed ${trims.join(', ')}` : ''),
  );
}

// Back to step 3: the tool call and its result were still in the window.
const atStep3 = seek(log, 3);
assert.deepEqual(
  getHistory(atStep3).map((m) => m.role),
  ['user', 'assistant', 'tool'],
);

// A branch from step 5: the user chose the other restaurant.
let branch = fork(log, 5);
branch = appendAction(
  branch,
  memoryActions.messageAdded(assistantMessage('Booked: Chez Paul, 21:00.')),
);
assert.equal(getHistory(replay(branch)).at(-1)?.content, 'Booked: Chez Paul, 21:00.');
assert.equal(getHistory(replay(log)).at(-1)?.content, 'Thanks!'); // the original is untouched

// Stored and read back: the same actions, the same final state.
const stored = JSON.stringify(encodeEnvelope(log));
const loaded = decodeEnvelope(JSON.parse(stored));
assert.ok(loaded._tag === 'Right' && loaded.right.kind === 'log');
assert.deepEqual(logActions(loaded.right.log), logActions(log));
assert.deepEqual(replay(loaded.right.log), replay(log));
console.log(
  `time travel: ${log.length} steps replayed, seek(3) shows the tool turn, a fork from step 5 diverges, and the stored log (${stored.length} bytes) replays to the same state`,
);
