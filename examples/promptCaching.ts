/**
 * Prompt caching: the agent's `config.cache` marks, on every model call, where the cached prompt
 * prefixes end (`modelView(state, { cache: true })`), and the Anthropic adapter sends them as
 * `cache_control` blocks: the system prompt, the end of the conversation before the newest turn,
 * and the newest turn. Offline: the client's `fetch` is a scripted model that answers in the
 * Messages API's wire format and reports which blocks carried `cache_control` (with a key, leave
 * `fetch` out).
 *
 * Run: `npx tsx examples/promptCaching.ts`
 */
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { ConversationMemory, createAgent, modelView } from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';

type Body = Anthropic.MessageCreateParamsNonStreaming;

/** The blocks of a request that carry `cache_control`, as `system.0`, `messages.2`. */
const breakpointsOf = (body: Body): string[] => {
  const marked: string[] = [];
  const system = Array.isArray(body.system) ? body.system : [];
  system.forEach((block, i) => {
    if (block.cache_control) marked.push(`system.${i}`);
  });
  body.messages.forEach((message, i) => {
    const content = Array.isArray(message.content) ? message.content : [];
    if (content.some((block) => 'cache_control' in block && block.cache_control)) {
      marked.push(`messages.${i}`);
    }
  });
  return marked;
};

/** The scripted "model": a tool call for arithmetic, a text answer otherwise. */
const sent: string[][] = [];
const scriptedModel = async (_url: string | URL | Request, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body)) as Body;
  sent.push(breakpointsOf(body));
  const last = body.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block) => block.type === 'tool_result');
  const asks = JSON.stringify(last).includes('+');
  return Response.json({
    id: `msg_${sent.length}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content:
      asks && !answered
        ? [{ type: 'tool_use', id: `toolu_${sent.length}`, name: 'calc', input: { expr: '2+2' } }]
        : [{ type: 'text', text: answered ? '2 + 2 = 4' : 'Hello, Ada.' }],
    stop_reason: asks && !answered ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 42, output_tokens: 7 },
  });
};

const client = new Anthropic({ apiKey: 'offline', fetch: scriptedModel, maxRetries: 0 });
const memory = new ConversationMemory({ maxMessages: 40, toolPairs: 'strict' });
const agent = createAgent({
  provider: anthropicProvider({ client, defaultModel: 'claude-haiku-4-5' }),
  memory,
  tools: [
    {
      name: 'calc',
      description: 'Evaluates an arithmetic expression',
      parameters: { type: 'object', properties: { expr: { type: 'string' } } },
      execute: ({ expr }) => (expr === '2+2' ? '4' : 'unknown'),
    },
  ],
  // `{ ttl: '1h' }` for the one-hour cache.
  config: { systemPrompt: 'You are a calculator.', cache: true },
});

await agent.run('I am Ada.');
const { message } = await agent.run('What is 2+2?');
assert.equal(message.content, '2 + 2 = 4');

// Every call marks the system prompt and its newest turn; a call after the first also marks the
// end of what the previous calls sent (the stable part), and never more than four.
for (const marks of sent) {
  assert.ok(marks.length <= 4, 'at most four breakpoints');
  assert.equal(marks[0], 'system.0', 'the system prompt is marked');
}
console.log(sent.map((marks, i) => `call ${i + 1}: ${marks.join(', ')}`).join('\n'));

// The same marks, as data, on the view of the memory.
const view = modelView(memory.state, { target: 'anthropic', cache: true });
console.log(
  `view: ${view.messages.length} messages, breakpoints at ${view.cache?.breakpoints.join(', ')}`,
);
console.log(
  `prompt caching: ${sent.length} calls, each with the system prompt and the newest turn marked (${sent.map((marks) => marks.length).join(', ')} breakpoints)`,
);
