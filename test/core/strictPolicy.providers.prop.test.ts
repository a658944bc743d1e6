/**
 * The provider-safe policy, end to end (issue #6 §5): random conversations with multi-call tool
 * turns, stray results, cut-short turns and system messages, pushed through memory with
 * `toolPairs: 'strict'` and `startOn: 'user'` under random limits (with or without `pinSystem`),
 * always leave a window that `validateTranscript` accepts for OpenAI and Anthropic, but for a
 * group at the end still waiting for its results (its tools are running: no provider takes that
 * request, and `validateTranscript` says so). At every request point (a window that has a message
 * besides system messages and does not end with such a group: that is where an agent calls the
 * model) the window is also sent through the real `openai` and `@anthropic-ai/sdk` clients, via
 * our adapters, to the loopback servers that enforce each provider's rules, and both answer 200.
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
  getHistory,
  validateTranscript,
  type Message,
  type MemoryState,
  type Provider,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { driverStepsArb } from '../arbitraries/toolConversation';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';

let openaiServer: OpenAIServer;
let anthropicServer: AnthropicServer;
let providers: readonly Provider[];

beforeAll(async () => {
  openaiServer = await startOpenAIServer();
  anthropicServer = await startAnthropicServer();
  providers = [
    openaiProvider({
      client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'test-key', maxRetries: 0 }),
      defaultModel: 'gpt-4o-mini',
    }),
    anthropicProvider({
      client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'test-key', maxRetries: 0 }),
      defaultModel: 'claude-sonnet-4-5',
    }),
  ];
});

afterAll(async () => {
  await openaiServer.close();
  await anthropicServer.close();
});

/**
 * The index of the group still waiting for results at the end of the window (its tools are
 * running), or `undefined` when the window does not end on one.
 */
const openGroupAt = (window: readonly Message[]): number | undefined => {
  let i = window.length - 1;
  while (i >= 0 && window[i]?.role === 'tool') i--;
  const last = window[i];
  const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : [];
  const resultsAfter = new Set(window.slice(i + 1).map((m) => m.toolCallId));
  return calls.every((call) => call.id !== undefined && resultsAfter.has(call.id)) ? undefined : i;
};

/** Whether an agent would call the model with this window. */
const isRequestPoint = (window: readonly Message[]): boolean =>
  window.some((m) => m.role !== 'system') && openGroupAt(window) === undefined;

const limitsArb = fc.record({
  maxMessages: fc.integer({ min: 1, max: 12 }),
  maxTokens: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
  pinSystem: fc.boolean(),
});

describe('strict + startOn user: every window is a transcript both providers accept', () => {
  it('validateTranscript finds nothing, and the loopback servers answer 200', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(limitsArb, driverStepsArb(12), async (limits, steps) => {
        let state: MemoryState = createMemory({
          ...limits,
          tokenizer: 'heuristic',
          toolPairs: 'strict',
          startOn: 'user',
        });
        for (const step of steps) {
          if (step.kind === 'clearMemory') state = clearMemory(state).state;
          else if (step.kind === 'addMessages') state = addMessages(state, step.messages).state;
          else for (const message of step.messages) state = addMessage(state, message).state;
          const window = getHistory(state);
          // A window that ends on a group whose tools are running is not a request yet: the
          // open group's missing results are all validateTranscript finds (no provider takes it).
          const open = openGroupAt(window);
          const expected = open === undefined ? [] : [[open, 'tool-call-without-result']];
          for (const target of ['openai', 'anthropic'] as const) {
            const found = validateTranscript(window, target).map((v) => [v.index, v.rule]);
            expect(found).toEqual(expected);
          }
          if (!isRequestPoint(window)) continue;
          for (const provider of providers) {
            const { message } = await provider.complete({
              model: provider.defaultModel ?? '',
              systemPrompt: 'You are a test.',
              messages: window,
            });
            expect(message.role).toBe('assistant');
            sent++;
          }
        }
      }),
      { numRuns: 100 },
    );
    // The property did reach the servers (a generator that never made a request point would pass
    // without testing them).
    expect(sent).toBeGreaterThan(80);
  });
});
