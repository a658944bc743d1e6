import { describe, expectTypeOf, it } from 'vitest';
import {
  createAgent,
  validateTranscript,
  type Agent,
  type AgentRunResult,
  type CompletionRequest,
  type JsonValue,
  type Message,
  type Provider,
  type TranscriptViolation,
} from 'conversation-memory';
import { LocalProvider } from 'conversation-memory/testing';
import { openaiProvider } from 'conversation-memory/openai';

describe('agent types', () => {
  it('createAgent returns an Agent whose run resolves to a result with the final message', () => {
    const agent = createAgent({ provider: new LocalProvider() });
    expectTypeOf(agent).toEqualTypeOf<Agent>();
    expectTypeOf(agent.run('hi')).toEqualTypeOf<Promise<AgentRunResult>>();
    expectTypeOf<AgentRunResult['message']>().toEqualTypeOf<Message>();
    expectTypeOf<AgentRunResult['stopReason']>().toEqualTypeOf<'final' | 'maxIterations'>();
  });

  it('tools take JSON arguments; observers and config are checked', () => {
    createAgent({
      provider: new LocalProvider(),
      tools: [
        {
          name: 'calc',
          description: 'adds',
          parameters: { type: 'object' },
          execute: (args) => {
            expectTypeOf(args.a).toEqualTypeOf<JsonValue | undefined>();
            return 1;
          },
        },
      ],
      observers: [
        {
          onMemoryTrim: (runId, removed, remaining, reason) => [runId, removed, remaining, reason],
        },
      ],
      config: { maxIterations: 3, summarizeOnTrim: true },
    });
    // @ts-expect-error an unknown config key
    createAgent({ provider: new LocalProvider(), config: { maxIteration: 3 } });
    // @ts-expect-error the provider is required
    createAgent({});
  });

  it('providers and validateTranscript', () => {
    expectTypeOf(new LocalProvider()).toMatchTypeOf<Provider>();
    expectTypeOf(openaiProvider).returns.toEqualTypeOf<Provider>();
    expectTypeOf<Provider['complete']>().parameter(0).toEqualTypeOf<CompletionRequest>();
    expectTypeOf(validateTranscript([], 'openai')).toEqualTypeOf<TranscriptViolation[]>();
    // @ts-expect-error only the two providers
    validateTranscript([], 'gemini');
  });
});
