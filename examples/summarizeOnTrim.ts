/**
 * Summarize-on-trim as a two-phase transaction: what memory trims is held in its state until a
 * summary covering it is committed. Here the summarizer is down for the first turns: nothing is
 * lost, the held messages wait (outside the window), and the first summary that succeeds covers
 * them all, recording which positions it covers.
 *
 * Run: `npx tsx examples/summarizeOnTrim.ts`
 */
import assert from 'node:assert/strict';
import { ConversationMemory, createAgent, type Provider } from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';

const local = new LocalProvider();
let summarizerUp = false;
const summarizer: Provider = {
  name: 'flaky-summarizer',
  defaultModel: 'local-1',
  complete: async (request) => {
    if (!summarizerUp) throw new Error('503 Service Unavailable');
    return local.complete(request);
  },
};

const memory = new ConversationMemory({ maxMessages: 4 });
const errors: string[] = [];
const agent = createAgent({
  provider: local,
  memory,
  config: {
    summarizeOnTrim: true,
    summarizeProvider: summarizer,
    onError: (error, { source }) => errors.push(`${source}: ${(error as Error).message}`),
  },
  observers: [{ onMemorySummarize: (_, summary) => console.log(`  summary: "${summary}"`) }],
});

const turns = [
  'My name is Alice.',
  'I live in Lyon.',
  'I like trains.',
  'I like cats too.',
  'What is my name?',
];
let last = '';
for (const [i, text] of turns.entries()) {
  summarizerUp = i >= 3; // down for the first three turns
  const { message } = await agent.run(text);
  last = message.content ?? '';
  const held = memory.pendingSummary.positions;
  console.log(`> ${text}\n  ${message.content}`);
  console.log(
    `  window ${JSON.stringify(memory.getPositions())}, held for summary ${JSON.stringify(held)}`,
  );
}

// The summarizer failed once; nothing was lost: the next summary covered what was held, and the
// model knows the name although its message left the window turns ago.
assert.deepEqual(errors, ['summarize: 503 Service Unavailable']);
assert.deepEqual(memory.pendingSummary.positions, []);
const [first] = memory.state.summaryCoverage;
assert.deepEqual(first, { from: 0, to: 3, count: 4 });
assert.match(memory.summary ?? '', /My name is Alice/);
assert.equal(last, 'Your name is Alice.');
console.log(
  `summarize-on-trim: ${errors.length} failed summary lost nothing; the first commit covers positions ${first?.from}–${first?.to}`,
);
