/**
 * The Anthropic adapter: a `Provider` backed by the real `@anthropic-ai/sdk` client, here talking
 * to the loopback Anthropic server of the test suite (it speaks the Messages API and enforces its
 * message rules), so the example runs offline. One tool turn: the model asks for a tool, the tool
 * runs, its result goes back as a `tool_result` block, and the model answers.
 *
 * Run: `npx tsx examples/anthropicAdapter.ts`
 */
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { ConversationMemory, createAgent, validateTranscript } from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { startAnthropicServer } from '../test/support/loopback/anthropicServer';

const server = await startAnthropicServer({
  // The scripted "model": ask for the calculator, then answer from its result.
  respond: ({ messages }) => {
    const last = messages.at(-1)?.content;
    const result = Array.isArray(last)
      ? last.find((block) => block.type === 'tool_result')
      : undefined;
    return result === undefined
      ? { text: 'Let me compute that.', toolUses: [{ name: 'calc', input: { expr: '2+2' } }] }
      : { text: '2 + 2 = 4', usage: { input_tokens: 42, output_tokens: 7 } };
  },
});

try {
  const client = new Anthropic({ baseURL: server.url, apiKey: 'loopback', maxRetries: 0 });
  const provider = anthropicProvider({ client, defaultModel: 'claude-loopback' });
  const tools = [
    {
      name: 'calc',
      description: 'Evaluates an arithmetic expression',
      parameters: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] },
    },
  ];
  const memory = new ConversationMemory({
    maxMessages: 20,
    toolPairs: 'strict',
    startOn: 'user',
    pinSystem: true,
  });
  const agent = createAgent({
    provider,
    memory,
    config: { systemPrompt: 'You are a calculator.' },
    tools: [
      {
        ...(tools[0] as (typeof tools)[number]),
        execute: ({ expr }) => (expr === '2+2' ? '4' : 'unknown'),
      },
    ],
  });
  const { message, iterations } = await agent.run('What is 2+2?');
  const call = memory.getHistory()[1]?.toolCalls?.[0];
  assert.ok(call?.id !== undefined, 'the model asked for a tool');
  console.log(`model asked for ${call.name}(${JSON.stringify(call.parameters)}) as ${call.id}`);
  console.log(
    'the tool result went back as:',
    JSON.stringify(server.requests.at(-1)?.messages.at(-1)),
  );
  assert.equal(iterations, 2);
  assert.equal(message.content, '2 + 2 = 4');
  assert.deepEqual(validateTranscript(memory.getHistory(), 'anthropic'), []);
  console.log(`anthropic adapter: tool turn complete, final answer "${message.content}"`);
} finally {
  await server.close();
}
