// Loads the built ESM entry under plain Node (no bundler, no vitest resolution), as users do.
// fp-ts and io-ts have no exports map, so an import that works under vitest can crash here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  addMessage,
  ConversationMemory,
  createMemory,
  fromDict,
  toDict,
  userMessage,
} from 'conversation-memory';

const memory = new ConversationMemory({ maxMessages: 2 });
memory.addMany([userMessage('a'), userMessage('b'), userMessage('Hello, world!')]);
assert.equal(String(memory), 'ConversationMemory(maxMessages=2, maxTokens=null, currentMessages=2)');
assert.equal(memory.state.totalTokens, 1 + 4); // o200k: "b" = 1, "Hello, world!" = 4
const restored = fromDict(JSON.parse(JSON.stringify(toDict(memory.state))));
assert.equal(restored._tag, 'Right');
assert.deepEqual(restored.right, memory.state);
assert.equal(fromDict({ max_messages: 0 })._tag, 'Left');

// Development (NODE_ENV unset here): whole windows are frozen to catch mutation early.
const state = addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('x')).state;
assert.equal(Object.isFrozen(state.messages), process.env.NODE_ENV !== 'production');

// Production: windows are not frozen (that would walk the whole window on every add), the
// state record and the messages still are.
const production = execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import { addMessage, createMemory, userMessage } from 'conversation-memory';
     const s = addMessage(createMemory({ tokenizer: 'heuristic' }), userMessage('x')).state;
     console.log(JSON.stringify([Object.isFrozen(s), Object.isFrozen(s.messages), Object.isFrozen(s.messages[0])]));`,
  ],
  { env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
);
assert.deepEqual(JSON.parse(production), [true, false, true]);
console.log('dist ESM entry: ok');
