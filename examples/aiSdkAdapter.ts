/**
 * The Vercel AI SDK adapter: an agent's tool turn through `aiSdkProvider`, with the real
 * `@ai-sdk/openai` model, offline: its `fetch` is a scripted model that answers in Chat
 * Completions' wire format, in place of api.openai.com (with a key, leave `fetch` out). The first
 * call returns a tool call with its id; the agent runs the tool, adds its result, and the second
 * call answers. The same provider works with any AI SDK `LanguageModel`
 * (`createAnthropic(…)('claude-…')`, …).
 *
 * Run: `npx tsx examples/aiSdkAdapter.ts`
 */
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { ConversationMemory, createAgent } from 'conversation-memory';
import { aiSdkProvider, toModelMessages } from 'conversation-memory/ai-sdk';

/** What the model reads of a Chat Completions request. */
interface ChatRequest {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

/** The "model": first it calls the tool, then it answers from the tool's result. */
const requests: ChatRequest[] = [];
const scriptedModel = async (_url: string | URL | Request, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body)) as ChatRequest;
  requests.push(body);
  const message =
    requests.length === 1
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_weather_1',
              type: 'function',
              function: { name: 'get_weather', arguments: JSON.stringify({ city: 'Paris' }) },
            },
          ],
        }
      : {
          role: 'assistant',
          content: `It is ${String(body.messages.at(-1)?.content)} in Paris.`,
        };
  return Response.json({
    id: `chatcmpl-${requests.length}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: requests.length === 1 ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 },
  });
};

const provider = aiSdkProvider({
  model: createOpenAI({ apiKey: 'offline', fetch: scriptedModel }).chat('gpt-4o-mini'),
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
console.log(`call 1 -> tool call ${call?.id}: ${call?.name}(${JSON.stringify(call?.parameters)})`);
console.log(`call 2 -> ${message.content}`);
console.log('as AI SDK messages:', JSON.stringify(toModelMessages(history.slice(1, 3))));
assert.equal(iterations, 2);
assert.equal(message.content, 'It is sunny, 21°C in Paris.');
console.log(`ai-sdk example complete: ${requests.length} calls, tool turn answered`);
