/**
 * Streaming an agent's run, with hooks on every model and tool call.
 *
 * `agent.stream(input)` yields typed events as they happen (named as the AI SDK names its stream
 * parts): `text-delta`, `tool-call`, `tool-result`, `memory-effect`, and last `finish` with the
 * result `run` resolves to. Observers `onModelCall`, `onModelResult`, `onToolStart` and
 * `onToolEnd` see each call as it is sent, its usage and latency. Offline, with `LocalProvider`.
 *
 * Run: `npx tsx examples/streamingAgent.ts`
 */
import assert from 'node:assert/strict';
import { ConversationMemory, createAgent, type AgentObserver } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const calls: string[] = [];
const hooks: AgentObserver = {
  onModelCall: (_, call) =>
    void calls.push(`model call ${call.iteration}: ${call.messages.length} messages`),
  onModelResult: (_, result) =>
    void calls.push(`model result: ${result.usage?.outputTokens ?? '?'} output tokens`),
  onToolStart: (_, tool) => void calls.push(`tool ${tool.toolName}(${JSON.stringify(tool.input)})`),
  onToolEnd: (_, tool) => void calls.push(`tool ${tool.toolName} → ${tool.output}`),
};

const memory = new ConversationMemory({ maxMessages: 3, tokenizer: 'heuristic' });
const agent = createAgent({
  provider: new LocalProvider(),
  memory,
  observers: [hooks],
  tools: [
    {
      name: 'calc',
      description: 'Adds two numbers',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      execute: ({ a, b }) => Number(a) + Number(b),
    },
  ],
});

let text = '';
let deltas = 0;
const kinds = new Set<string>();
for await (const event of agent.stream('/call calc {"a": 2, "b": 2}')) {
  kinds.add(event.type);
  if (event.type === 'text-delta') {
    text += event.text;
    deltas += 1;
  }
  if (event.type === 'tool-call') console.log(`→ ${event.toolName}`, event.input);
  if (event.type === 'tool-result') console.log(`← ${event.output}`);
  if (event.type === 'memory-effect') console.log(`memory: ${event.effect.type}`);
  if (event.type === 'finish') {
    assert.equal(event.result.message.content, text);
    console.log(`finish after ${event.result.iterations} model calls: ${text}`);
  }
}
for (const line of calls) console.log(`  ${line}`);
assert.deepEqual([...kinds].sort(), [
  'finish',
  'memory-effect',
  'text-delta',
  'tool-call',
  'tool-result',
]);
assert.ok(deltas >= 1);
console.log(
  `streaming agent: ${calls.filter((c) => c.startsWith('model call')).length} model calls, ${calls.filter((c) => c.includes(' → ')).length} tool call, the streamed text is the final answer`,
);
