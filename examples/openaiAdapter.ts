/**
 * An agent on the OpenAI adapter with the real `openai` client, offline: a loopback server that
 * speaks Chat Completions (and enforces its rules) stands in for api.openai.com. The model asks
 * for a tool, the agent runs it, and the model answers from its result: two model calls, each
 * sending the whole transcript (system prompt first, tool call and result as OpenAI expects).
 *
 * Run: `npx tsx examples/openaiAdapter.ts`
 */
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ConversationMemory, createAgent, validateTranscript } from 'conversation-memory';
import { openaiProvider } from 'conversation-memory/openai';
import { startOpenAIServer } from '../test/support/loopback/openaiServer';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The "model": first it calls the tool, then it answers from the tool's result. */
const server = await startOpenAIServer({
  respond: ({ body }) => {
    const result = body.messages.at(-1);
    return result?.role === 'tool'
      ? {
          text: `It is ${String(result.content)} in Paris.`,
          usage: { promptTokens: 61, completionTokens: 9 },
        }
      : {
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
          usage: { promptTokens: 48, completionTokens: 14 },
        };
  },
});

try {
  const client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
  const provider = openaiProvider({ client, defaultModel: 'gpt-4o-mini' });
  const memory = new ConversationMemory({ maxMessages: 20, toolPairs: 'strict' });
  const agent = createAgent({
    provider,
    memory,
    config: { systemPrompt: 'You are terse.' },
    tools: [{ ...weatherTool, execute: ({ city }) => `18°C and sunny (${String(city)})` }],
  });

  const { message, iterations } = await agent.run('What is the weather in Paris?');
  console.log('model answers:', message.content, `after ${iterations} calls`);
  console.log(
    'memory:',
    memory
      .getHistory()
      .map((m) => m.role)
      .join(', '),
  );

  const sent = server.requests[1]?.messages.map((m) => m.role);
  assert.deepEqual(sent, ['system', 'user', 'assistant', 'tool']);
  assert.equal(message.content, 'It is 18°C and sunny (Paris) in Paris.');
  assert.deepEqual(validateTranscript(memory.getHistory(), 'openai'), []);
  console.log(`openai adapter: ${server.requests.length} calls, roles sent: ${sent?.join(', ')}`);
} finally {
  await server.close();
}
