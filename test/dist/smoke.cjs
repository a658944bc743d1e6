// Loads the built CommonJS entry under plain Node with require().
const assert = require('node:assert/strict');
const cm = require('conversation-memory');

const { state, effects } = cm.addMessages(cm.createMemory({ maxMessages: 1, tokenizer: 'cl100k_base' }), [
  cm.userMessage('first'),
  cm.userMessage('Hello, world!'),
]);
assert.equal(state.totalTokens, 4);
assert.equal(effects[0].type, 'memory/trimmed');
assert.throws(() => cm.createMemory({ maxMessages: 0 }), cm.MemoryConfigError);
assert.equal(cm.estimateTokens(''), 0);
assert.equal(typeof cm.ConversationMemory.fromDict, 'function');
console.log('dist CJS entry: ok');
