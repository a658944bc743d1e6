/**
 * The Vercel AI SDK adapter: an agent-style tool turn through `aiSdkProvider`, with the real
 * `@ai-sdk/openai` client talking to the loopback Chat Completions server (offline, on
 * 127.0.0.1). The first call returns a tool call with its id; we run the tool, add its result,
 * and the second call answers. The same provider works with any AI SDK `LanguageModel`
 * (`createAnthropic(…)('claude-…')`, …).
 *
 * Run: `npx tsx examples/aiSdkAdapter.ts`
 */
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { toolMessage, userMessage, type Message } from 'conversation-memory';
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
  const messages: Message[] = [userMessage('What is the weather in Paris?')];

  const first = await provider.complete({
    model: provider.defaultModel ?? 'gpt-4o-mini',
    systemPrompt: 'You are brief.',
    messages,
    tools,
  });
  const calls = first.message.toolCalls ?? [];
  assert.equal(calls.length, 1);
  console.log(
    `call 1 -> tool call ${calls[0]?.id}: ${calls[0]?.name}(${JSON.stringify(calls[0]?.parameters)})`,
  );
  messages.push(first.message);
  for (const call of calls) {
    messages.push(toolMessage('sunny, 21°C', { toolCallId: call.id, toolName: call.name }));
  }

  const second = await provider.complete({
    model: provider.defaultModel ?? 'gpt-4o-mini',
    systemPrompt: 'You are brief.',
    messages,
    tools,
  });
  messages.push(second.message);
  console.log(`call 2 -> ${second.message.content}`);
  console.log(`usage: ${JSON.stringify(second.usage)}`);
  console.log('as AI SDK messages:', JSON.stringify(toModelMessages(messages.slice(1, 3))));
  assert.equal(second.message.content, 'It is sunny, 21°C in Paris.');
  console.log(`ai-sdk example complete: ${server.requests.length} calls, tool turn answered`);
} finally {
  await server.close();
}
