/**
 * The Anthropic adapter: a `Provider` backed by the real `@anthropic-ai/sdk` client, offline: the
 * client's `fetch` is a scripted model that answers in the Messages API's wire format, in place of
 * api.anthropic.com (with a key, leave `fetch` out). One tool turn: the model asks for a tool, the
 * tool runs, its result goes back as a `tool_result` block, and the model answers.
 *
 * Run: `npx tsx examples/anthropicAdapter.ts`
 */
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { ConversationMemory, createAgent, validateTranscript } from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';

/** The scripted "model": ask for the calculator, then answer from its result. */
const requests: Anthropic.MessageCreateParamsNonStreaming[] = [];
const scriptedModel = async (_url: string | URL | Request, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body)) as Anthropic.MessageCreateParamsNonStreaming;
  requests.push(body);
  const last = body.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block) => block.type === 'tool_result');
  return Response.json({
    id: `msg_${requests.length}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: answered
      ? [{ type: 'text', text: '2 + 2 = 4' }]
      : [
          { type: 'text', text: 'Let me compute that.' },
          { type: 'tool_use', id: 'toolu_1', name: 'calc', input: { expr: '2+2' } },
        ],
    stop_reason: answered ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 42, output_tokens: 7 },
  });
};

const client = new Anthropic({ apiKey: 'offline', fetch: scriptedModel, maxRetries: 0 });
const provider = anthropicProvider({ client, defaultModel: 'claude-haiku-4-5' });
const calc = {
  name: 'calc',
  description: 'Evaluates an arithmetic expression',
  parameters: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] },
};
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
  tools: [{ ...calc, execute: ({ expr }) => (expr === '2+2' ? '4' : 'unknown') }],
});
const { message, iterations } = await agent.run('What is 2+2?');
const call = memory.getHistory()[1]?.toolCalls?.[0];
assert.ok(call?.id !== undefined, 'the model asked for a tool');
console.log(`model asked for ${call.name}(${JSON.stringify(call.parameters)}) as ${call.id}`);
console.log('the tool result went back as:', JSON.stringify(requests.at(-1)?.messages.at(-1)));
assert.equal(iterations, 2);
assert.equal(message.content, '2 + 2 = 4');
assert.deepEqual(validateTranscript(memory.getHistory(), 'anthropic'), []);
console.log(`anthropic adapter: tool turn complete, final answer "${message.content}"`);
