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
import { toolMessage, userMessage, type Message } from 'conversation-memory';
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
  const history: Message[] = [userMessage('What is 2+2?')];
  const ask = () =>
    provider.complete({
      model: '',
      systemPrompt: 'You are a calculator.',
      messages: history,
      tools,
    });

  const first = await ask();
  history.push(first.message);
  const [call] = first.message.toolCalls ?? [];
  assert.ok(call?.id !== undefined, 'the model asked for a tool');
  console.log(`model asked for ${call.name}(${JSON.stringify(call.parameters)}) as ${call.id}`);
  history.push(toolMessage('4', { toolCallId: call.id, toolName: call.name }));

  const second = await ask();
  history.push(second.message);
  console.log(
    'the tool result went back as:',
    JSON.stringify(server.requests.at(-1)?.messages.at(-1)),
  );
  console.log(`usage: ${JSON.stringify(second.usage)}`);
  assert.equal(second.message.content, '2 + 2 = 4');
  console.log(`anthropic adapter: tool turn complete, final answer "${second.message.content}"`);
} finally {
  await server.close();
}
