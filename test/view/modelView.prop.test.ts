/**
 * The model view is provider-valid on every path (issue #16 §1): random states from every source
 * (the reducers under each policy, cut-short tool turns as an interrupted run leaves them,
 * hostile-but-valid reference files through `fromDict`, and `decodeState` of what a store writes)
 * give a view that `validateTranscript` accepts for its target, that never ends with an
 * unanswered call, and that the real `openai` and `@anthropic-ai/sdk` clients get a 200 for from
 * the loopback servers enforcing each provider's rules. The same property over `getHistory`
 * fails: the retained window alone is not a request.
 */
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMessage,
  addMessages,
  clearMemory,
  createMemory,
  decodeState,
  fromDict,
  getHistory,
  messageToDict,
  modelView,
  setSummary,
  validateTranscript,
  type Message,
  type MemoryState,
  type Provider,
  type ViewTarget,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { isRight } from 'fp-ts/lib/Either.js';
import { driverStepsArb, toolConversationArb } from '../arbitraries/toolConversation';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';

let openaiServer: OpenAIServer;
let anthropicServer: AnthropicServer;
let openai: Provider;
let anthropic: Provider;

beforeAll(async () => {
  openaiServer = await startOpenAIServer();
  anthropicServer = await startAnthropicServer();
  openai = openaiProvider({
    client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'test-key', maxRetries: 0 }),
    defaultModel: 'gpt-4o-mini',
  });
  anthropic = anthropicProvider({
    client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'test-key', maxRetries: 0 }),
    defaultModel: 'claude-sonnet-4-5',
  });
});

afterAll(async () => {
  await openaiServer.close();
  await anthropicServer.close();
});

const policyArb = fc.record({
  maxMessages: fc.integer({ min: 1, max: 12 }),
  maxTokens: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
  toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
  startOn: fc.constantFrom(null, 'user' as const),
  pinSystem: fc.boolean(),
});

/** States made by the reducers under any policy, from conversations with cut-short tool turns. */
const reducerStateArb: fc.Arbitrary<MemoryState> = fc
  .tuple(policyArb, driverStepsArb(12), fc.option(fc.string({ minLength: 1 }), { nil: null }))
  .map(([policy, steps, summary]) => {
    let state = createMemory({ ...policy, tokenizer: 'heuristic' });
    for (const step of steps) {
      if (step.kind === 'clearMemory') state = clearMemory(state).state;
      else if (step.kind === 'addMessages') state = addMessages(state, step.messages).state;
      else for (const message of step.messages) state = addMessage(state, message).state;
    }
    return summary === null ? state : setSummary(state, summary).state;
  });

/** Messages a hand-edited or foreign reference file may hold: empty, null, repeated ids. */
const oddMessageArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({ role: 'assistant', content: null }),
  fc.constant({ role: 'assistant', content: '' }),
  fc.constant({ role: 'user', content: '   ' }),
  fc.constant({ role: 'system', content: 'be brief' }),
  fc.constant({ role: 'tool', content: 'late', tool_call_id: 'c0_0' }),
  fc.constant({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c0_0', name: 'calc', parameters: {} }],
  }),
);

/** Reference files (`fromDict`): any message order, odd messages spliced in, any limits. */
const fileStateArb: fc.Arbitrary<MemoryState> = fc
  .tuple(
    toolConversationArb(10),
    fc.array(fc.tuple(fc.nat(), oddMessageArb), { maxLength: 4 }),
    fc.integer({ min: 1, max: 30 }),
  )
  .map(([conversation, odd, maxMessages]) => {
    const messages: unknown[] = conversation.map((message) => messageToDict(message));
    for (const [at, message] of odd) messages.splice(at % (messages.length + 1), 0, message);
    const decoded = fromDict({ max_messages: maxMessages, messages, summary: null });
    if (!isRight(decoded))
      throw new Error(`a reference file did not load: ${decoded.left.message}`);
    return decoded.right;
  });

/** What a store writes and reads back (JSON → `decodeState`). */
const storedStateArb: fc.Arbitrary<MemoryState> = reducerStateArb.map((state) => {
  const decoded = decodeState(JSON.parse(JSON.stringify(state)));
  if (!isRight(decoded)) throw new Error('a stored state did not decode');
  return decoded.right;
});

const anyStateArb = fc.oneof(reducerStateArb, fileStateArb, storedStateArb);

/** The pairing rules every target keeps (Anthropic's turn rules are its own). */
const PAIRING = new Set([
  'tool-result-without-call',
  'tool-call-without-result',
  'duplicate-tool-result',
  'duplicate-tool-call-id',
  'tool-call-without-id',
  'missing-tool-call-id',
]);

/** A call at the end that no result answers: providers refuse such a request. */
const endsUnanswered = (messages: readonly Message[]): boolean => {
  let i = messages.length - 1;
  const answered = new Set<string>();
  for (; i >= 0 && messages[i]?.role === 'tool'; i--) answered.add(messages[i]?.toolCallId ?? '');
  const last = messages[i];
  return (last?.toolCalls ?? []).some((call) => !answered.has(call.id ?? ''));
};

/** Whether the messages are valid for the target, as the provider would judge a request. */
const validFor = (messages: readonly Message[], target: ViewTarget): boolean => {
  if (endsUnanswered(messages)) return false;
  if (target === 'none') {
    // 'none' is exactly the pairing rules.
    const pairing = validateTranscript(messages, 'openai').filter((v) => PAIRING.has(v.rule));
    expect(validateTranscript(messages, 'none')).toEqual(pairing);
    return pairing.length === 0;
  }
  return validateTranscript(messages, target).length === 0;
};

const hasTurn = (messages: readonly Message[]): boolean =>
  messages.some((m) => m.role !== 'system');

describe('modelView: provider-valid whatever the state', () => {
  it('validates for every target, and both real clients get 200 from the loopback servers', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(anyStateArb, async (state) => {
        const before = JSON.stringify(state);
        for (const target of ['openai', 'anthropic', 'none'] as const) {
          const view = modelView(state, { target });
          expect(validFor(view.messages, target)).toBe(true);
        }
        const forOpenAI = modelView(state, { target: 'openai' }).messages;
        const forAnthropic = modelView(state, { target: 'anthropic' }).messages;
        // Building a view never changes the state.
        expect(JSON.stringify(state)).toBe(before);
        for (const [provider, messages] of [
          [openai, forOpenAI],
          [anthropic, forAnthropic],
        ] as const) {
          if (!hasTurn(messages)) continue;
          const { message } = await provider.complete({
            model: provider.defaultModel ?? '',
            systemPrompt: 'You are a test.',
            messages,
          });
          expect(message.role).toBe('assistant');
          sent++;
        }
      }),
      { numRuns: 150 },
    );
    expect(sent).toBeGreaterThan(150);
  });

  it('the same property over getHistory fails: the retained window is not a request', () => {
    const result = fc.check(
      fc.property(anyStateArb, (state) => {
        const window = getHistory(state);
        return validFor(window, 'openai') && validFor(window, 'anthropic');
      }),
      { numRuns: 300 },
    );
    expect(result.failed).toBe(true);
  });

  it('every message of the window is in the view or reported as left out, in order', () => {
    fc.assert(
      fc.property(anyStateArb, fc.constantFrom('openai', 'anthropic', 'none'), (state, target) => {
        const view = modelView(state, { target });
        const window = getHistory(state);
        const omitted = new Set(
          view.changes.flatMap((c) => (c.type === 'view/omitted' ? [c.index] : [])),
        );
        const kept = window.filter((_, i) => !omitted.has(i));
        const fromWindow = view.messages.filter((m) => window.includes(m));
        expect(fromWindow).toEqual(kept);
        // What the view made itself is exactly the answered calls.
        const made = view.messages.filter((m) => !window.includes(m) && m.role === 'tool');
        expect(made).toEqual(
          view.changes.flatMap((c) => (c.type === 'view/answered' ? [c.message] : [])),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('with a budget, the view fits unless its newest group and pinned messages alone exceed it', () => {
    fc.assert(
      fc.property(
        anyStateArb,
        fc.constantFrom('openai', 'anthropic', 'none'),
        fc.integer({ min: 1, max: 60 }),
        (state, target, budget) => {
          const view = modelView(state, { target, budget });
          expect(validFor(view.messages, target)).toBe(true);
          expect(view.tokens).toBeDefined();
          if (view.overBudget === false) expect(view.tokens).toBeLessThanOrEqual(budget);
          else expect(view.tokens).toBeGreaterThan(budget);
        },
      ),
      { numRuns: 300 },
    );
  });
});
