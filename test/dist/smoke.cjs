// Loads the built CommonJS entry under plain Node with require().
const assert = require('node:assert/strict');
const cm = require('conversation-memory');
// The adapter subpaths load through require too, sharing the root entry's classes.
const openai = require('conversation-memory/openai');
const anthropic = require('conversation-memory/anthropic');
const aiSdk = require('conversation-memory/ai-sdk');
const otel = require('conversation-memory/otel');
assert.equal(typeof openai.openaiProvider, 'function');
assert.equal(typeof anthropic.anthropicProvider, 'function');
assert.equal(typeof aiSdk.aiSdkProvider, 'function');
assert.throws(() => openai.openaiProvider({ client: {} }), cm.AgentConfigError);
// The embedder: its errors are the library's one copy (the root's MemoryArgumentError, the shared
// EmbeddingNotPreparedError), and importCache returns an Either (fp-ts loads under require).
assert.throws(() => openai.createOpenAIEmbedder({ client: {} }), cm.MemoryArgumentError);
{
  const embedder = openai.createOpenAIEmbedder({ client: { embeddings: { create: async () => ({}) } } });
  assert.equal(embedder.importCache('not json')._tag, 'Left');
  assert.throws(() => embedder.embed('x'), (error) => error instanceof openai.EmbeddingNotPreparedError && cm.isConversationMemoryError(error));
}
assert.throws(() => otel.otelObserver({ recordContent: 'yes' }), cm.AgentConfigError);
assert.equal(typeof otel.otelObserver().onModelCall, 'function');

const { state, effects } = cm.addMessages(cm.createMemory({ maxMessages: 1, tokenizer: 'cl100k_base' }), [
  cm.userMessage('first'),
  cm.userMessage('Hello, world!'),
]);
assert.equal(state.totalTokens, 4);
assert.equal(effects[0].type, 'memory/trimmed');
assert.throws(() => cm.createMemory({ maxMessages: 0 }), cm.MemoryConfigError);
assert.equal(require('conversation-memory/tokens').estimateTokens(''), 0);
assert.equal(typeof cm.ConversationMemory.fromDict, 'function');
console.log('dist CJS entry: ok');
