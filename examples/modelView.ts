/**
 * The model view: what the next provider call receives, beside what memory retains.
 *
 * A memory under the reference policy (selectools' rules) holds a tool call that a crashed run
 * left unanswered, then the user's next message; its window starts with an assistant turn. Sent
 * as they are, OpenAI refuses the unanswered call and Anthropic both. `modelView(state, { target })`
 * answers the dangling call in the view (memory unchanged), leaves out what the target refuses,
 * injects the summary first, and says what it did, as data. `validateTranscript` finds nothing
 * in the view.
 *
 * Run: `npx tsx examples/modelView.ts`
 */
import assert from 'node:assert/strict';
import {
  addMessages,
  assistantMessage,
  createMemory,
  getHistory,
  modelView,
  setSummary,
  toolMessage,
  userMessage,
  validateTranscript,
} from 'conversation-memory';

let state = createMemory({ maxMessages: 4, tokenizer: 'heuristic' });
state = addMessages(state, [
  userMessage('What is 2 + 2?'),
  assistantMessage(null, [{ id: 'c1', name: 'calc', parameters: { a: 2, b: 2 } }]),
  toolMessage('4', { toolCallId: 'c1', toolName: 'calc' }),
  assistantMessage('2 + 2 = 4.'),
  userMessage('And the weather in Paris?'),
  assistantMessage(null, [{ id: 'c2', name: 'weather', parameters: { city: 'Paris' } }]),
  userMessage('Hello? Are you there?'),
]).state;
state = setSummary(state, 'The user asked for a sum.').state;

const window = getHistory(state);
console.log('retained:', window.map((m) => m.role).join(', '));
const refused = validateTranscript(window, 'openai').map((v) => v.rule);
assert.deepEqual(refused, ['tool-call-without-result']);
console.log('OpenAI would refuse the window:', refused.join(', '));

for (const target of ['openai', 'anthropic'] as const) {
  const view = modelView(state, { target });
  assert.deepEqual(validateTranscript(view.messages, target), []);
  console.log(`view for ${target}:`, view.messages.map((m) => m.role).join(', '));
  for (const change of view.changes) {
    console.log(
      change.type === 'view/omitted'
        ? `  left out #${change.position}: ${change.reason}`
        : change.type === 'view/answered'
          ? `  answered ${change.toolCallId} (${change.toolName}) as interrupted`
          : `  ${change.type}`,
    );
  }
}
// Memory is unchanged: the view is derived, never stored.
assert.equal(getHistory(state), window);
const view = modelView(state, { target: 'openai' });
console.log(
  `model view: ${view.messages.length} messages sent, ${view.changes.length} changes, 0 violations; memory unchanged`,
);
