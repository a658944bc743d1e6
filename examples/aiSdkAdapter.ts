/**
 * The Vercel AI SDK adapter: an agent's tool turn through `aiSdkProvider`, with the real
 * `@ai-sdk/openai` client talking to the loopback Chat Completions server (offline, on
 * 127.0.0.1). The first call returns a tool call with its id; the agent runs the tool, adds its
 * result, and the second call answers. The same provider works with any AI SDK `LanguageModel`
 * (`createAnthropic(…)('claude-…')`, …).
 *
 * Run: `npx tsx examples/aiSdkAdapter.ts`
 */
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { ConversationMemory, createAgent } from 'conversation-memory';
import { aiSdkProvider, toModelMessages } from 'conversation-memory/ai-sdk';
// Test support, not part of the package: a local server that speaks OpenAI's wire format.
import { startOpenAIServer } from '../test/support/loopback/openaiServer';

const server = await startOpenAIServer({
  respond: ({ index, body }) =>
    index === 0
      ? { toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }] }
      : `It is ${String(body.messages.at(-1)?.content)} in Paris.`,
});

try {
  const provider = aiSdkProvider({
    model: createOpenAI({ baseURL: server.url, apiKey: 'loopback' }).chat('gpt-4o-mini'),
  });
  const tools = [
    {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ];
  const memory = new ConversationMemory({ maxMessages: 20, toolPairs: 'strict' });
  const agent = createAgent({
    provider,
    memory,
    config: { systemPrompt: 'You are brief.' },
    tools: [{ ...(tools[0] as (typeof tools)[number]), execute: () => 'sunny, 21°C' }],
  });
  const { message, iterations } = await agent.run('What is the weather in Paris?');
  const history = memory.getHistory();
  const call = history[1]?.toolCalls?.[0];
  console.log(
    `call 1 -> tool call ${call?.id}: ${call?.name}(${JSON.stringify(call?.parameters)})`,
  );
  console.log(`call 2 -> ${message.content}`);
  console.log('as AI SDK messages:', JSON.stringify(toModelMessages(history.slice(1, 3))));
  assert.equal(iterations, 2);
  assert.equal(message.content, 'It is sunny, 21°C in Paris.');
  console.log(`ai-sdk example complete: ${server.requests.length} calls, tool turn answered`);
} finally {
  await server.close();
}
