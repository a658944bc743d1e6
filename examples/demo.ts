/**
 * `npm run demo`: an agent with a tool and a small memory, on the deterministic offline
 * `LocalProvider`. It shows, turn by turn: what the model receives (the stored summary injected
 * at index 0 as `[Conversation Summary] …`), a tool turn (the call, its result), each trim
 * (`onMemoryTrim`) and each committed summary (`onMemorySummarize`). The memory uses the
 * provider-safe policy: tool calls and their results are trimmed as whole groups, the system
 * message is pinned, and the window starts on a user message.
 *
 * `npm run demo -- --log demo-log.json` also writes the conversation as an event log, for
 * `npm run inspect -- demo-log.json` (in an app: `npx conversation-memory inspect demo-log.json`):
 * every change the agent makes to its memory is recorded as the matching action (`RecordedMemory`).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import {
  appendAction,
  createAgent,
  createEventLog,
  encodeEnvelope,
  type MemoryOptions,
  RecordedMemory,
  replay,
  systemMessage,
  validateTranscript,
  type Message,
  type Provider,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const clip = (text: string, width = 48): string =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text;

/** One message, compactly: `U"What is…"`, `A→get_weather(call_1)`, `T(call_1)"Paris: 18°C"`. */
const compact = (m: Message): string => {
  if (m.toolCalls !== undefined)
    return `A→${m.toolCalls.map((c) => `${c.name}(${c.id})`).join('+')}`;
  const tag = { system: 'S', user: 'U', assistant: 'A', tool: `T(${m.toolCallId})` }[m.role];
  return `${tag}"${clip(m.content ?? '', 40)}"`;
};

// A Provider is one method; this one logs what the model receives, then asks LocalProvider.
const local = new LocalProvider();
let summaryCalls = 0;
let injected = 0;
const provider: Provider = {
  name: 'logged-local',
  defaultModel: local.defaultModel,
  complete: async (request) => {
    if (request.systemPrompt === 'You are a concise summarizer.') summaryCalls++;
    else {
      if (request.messages[0]?.content?.startsWith('[Conversation Summary]') === true) injected++;
      console.log(`   model sees: ${request.messages.map(compact).join(' ')}`);
    }
    return local.complete(request);
  },
};

const weather: Record<string, string> = { Paris: '18°C, cloudy', Kyoto: '24°C, sunny' };
// A memory that tells every change it makes as its action: kept here as an event log.
const options: MemoryOptions = {
  maxMessages: 5,
  toolPairs: 'strict',
  pinSystem: true,
  startOn: 'user',
};
const memory = new RecordedMemory(options);
let log = createEventLog(options);
memory.onAction((action) => (log = appendAction(log, action)));
let trims = 0;
const agent = createAgent({
  provider,
  memory,
  tools: [
    {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => `${String(city)}: ${weather[String(city)] ?? 'unknown'}`,
    },
  ],
  config: { summarizeOnTrim: true, onError: (error) => console.error(error) },
  observers: [
    {
      onMemoryTrim: (_, removed, remaining) => {
        trims++;
        console.log(`   ✂ trimmed ${removed}, ${remaining} remain`);
      },
      onMemorySummarize: (_, summary) => console.log(`   Σ summary now: "${clip(summary, 70)}"`),
    },
  ],
});

memory.add(systemMessage('You are a travel assistant.'));
const turns = [
  'My name is Alice.',
  '/call get_weather {"city": "Paris"}',
  '/call get_weather {"city": "Kyoto"}',
  'What is my name?',
];
let last: Message | undefined;
for (const [i, text] of turns.entries()) {
  console.log(`\n${i + 1}. user: ${text}`);
  const { message, iterations } = await agent.run(text);
  last = message;
  console.log(
    `   assistant (${iterations} model call${iterations > 1 ? 's' : ''}): ${message.content}`,
  );
  console.log(
    `   window [${memory.getPositions().join(', ')}]: ${memory.getHistory().map(compact).join(' ')}`,
  );
  // The window is always one both providers accept.
  assert.deepEqual(validateTranscript(memory.getHistory(), 'openai'), []);
  assert.deepEqual(validateTranscript(memory.getHistory(), 'anthropic'), []);
}

// The name left the window long ago; the model still knows it from the injected summary.
assert.equal(last?.content, 'Your name is Alice.');
assert.ok(memory.getHistory().every((m) => !m.content?.includes('My name is Alice')));
assert.equal(memory.getHistory()[0]?.role, 'system');
assert.ok(trims > 0 && summaryCalls > 0 && injected > 0);
// The recorded log replays to the very memory the agent built.
assert.deepEqual(replay(log), memory.state);
const logFile = process.argv.indexOf('--log');
if (logFile !== -1)
  writeFileSync(process.argv[logFile + 1] ?? 'demo-log.json', JSON.stringify(encodeEnvelope(log)));
console.log(
  `\ndemo complete: ${turns.length} runs, ${trims} trims, ${summaryCalls} summaries, summary injected in ${injected} model calls; the model answered "${last?.content}" from the summary`,
);
