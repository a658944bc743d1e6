/**
 * An agent on the OpenAI adapter with the real `openai` client, offline: the client's `fetch` is
 * a scripted model that answers in Chat Completions' wire format, in place of api.openai.com
 * (with a key, leave `fetch` out). The model asks for a tool, the agent runs it, and the model
 * answers from its result: two model calls, each sending the whole transcript (system prompt
 * first, tool call and result as OpenAI expects).
 *
 * Run: `npx tsx examples/openaiAdapter.ts`
 */
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ConversationMemory, createAgent, validateTranscript } from 'conversation-memory';
import { openaiProvider } from 'conversation-memory/openai';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The "model": first it calls the tool, then it answers from the tool's result. */
const requests: OpenAI.ChatCompletionCreateParamsNonStreaming[] = [];
const scriptedModel = async (_url: string | URL | Request, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body)) as OpenAI.ChatCompletionCreateParamsNonStreaming;
  requests.push(body);
  const result = body.messages.at(-1);
  const message: OpenAI.ChatCompletionMessage =
    result?.role === 'tool'
      ? { role: 'assistant', content: `It is ${String(result.content)} in Paris.`, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: JSON.stringify({ city: 'Paris' }) },
            },
          ],
        };
  const completion: OpenAI.ChatCompletion = {
    id: `chatcmpl-${requests.length}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: message.tool_calls === undefined ? 'stop' : 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 48, completion_tokens: 14, total_tokens: 62 },
  };
  return Response.json(completion);
};

const client = new OpenAI({ apiKey: 'offline', fetch: scriptedModel, maxRetries: 0 });
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

const sent = requests[1]?.messages.map((m) => m.role);
assert.deepEqual(sent, ['system', 'user', 'assistant', 'tool']);
assert.equal(message.content, 'It is 18°C and sunny (Paris) in Paris.');
assert.deepEqual(validateTranscript(memory.getHistory(), 'openai'), []);
console.log(`openai adapter: ${requests.length} calls, roles sent: ${sent?.join(', ')}`);
