/**
 * `validateTranscript` against the providers' own judgement (issue #27 §3): for generated tool
 * conversations (multi-call turns answered in any order, in part or not at all, stray results,
 * calls without ids, system messages) cut at any point, so that a transcript may end on calls
 * none or some of whose results came, `validateTranscript(messages, provider)` reports a problem
 * exactly when the loopback server enforcing that provider's rules refuses the request sent
 * through the real `openai` / `@anthropic-ai/sdk` client and our adapter. A problem it reports for
 * calls left without results names the same ids the server's refusal names.
 */
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  validateTranscript,
  type Message,
  type Provider,
  type TranscriptProvider,
} from 'conversation-memory';
import { anthropicProvider } from 'conversation-memory/anthropic';
import { openaiProvider } from 'conversation-memory/openai';
import { toolConversationArb } from '../arbitraries/toolConversation';
import { startAnthropicServer, type AnthropicServer } from '../support/loopback/anthropicServer';
import { startOpenAIServer, type OpenAIServer } from '../support/loopback/openaiServer';

let openaiServer: OpenAIServer;
let anthropicServer: AnthropicServer;
let providers: Readonly<Record<TranscriptProvider, Provider>>;

beforeAll(async () => {
  openaiServer = await startOpenAIServer();
  anthropicServer = await startAnthropicServer();
  providers = {
    openai: openaiProvider({
      client: new OpenAI({ baseURL: openaiServer.url, apiKey: 'test-key', maxRetries: 0 }),
      defaultModel: 'gpt-4o-mini',
    }),
    anthropic: anthropicProvider({
      client: new Anthropic({ baseURL: anthropicServer.url, apiKey: 'test-key', maxRetries: 0 }),
      defaultModel: 'claude-sonnet-4-5',
    }),
  };
});

afterAll(async () => {
  await openaiServer.close();
  await anthropicServer.close();
});

/** A tool turn left open: 1–3 calls, fewer of their results (in any order), maybe a system note. */
const openTurnArb: fc.Arbitrary<Message[]> = fc
  .integer({ min: 1, max: 3 })
  .chain((calls) =>
    fc.tuple(
      fc.shuffledSubarray(
        Array.from({ length: calls }, (_, i) => i),
        { maxLength: calls - 1 },
      ),
      fc.constant(calls),
      fc.boolean(),
    ),
  )
  .map(([answered, calls, note]) => {
    const ids = Array.from({ length: calls }, (_, i) => `open_${i}`);
    const toolCalls = ids.map((id) => ({ id, name: 'calc', parameters: {} }));
    return [
      { role: 'assistant' as const, content: 'Let me check.', toolCalls },
      ...answered.map((i) => ({
        role: 'tool' as const,
        content: `r${i}`,
        toolCallId: ids[i] as string,
        toolName: 'calc',
      })),
      ...(note ? [{ role: 'system' as const, content: 'note' }] : []),
    ];
  });

/**
 * A tool conversation cut at any point (often inside a tool turn), or followed by a turn left
 * open; with at least one message that is not a system message (a request of system messages
 * only is another matter).
 */
const transcriptArb: fc.Arbitrary<Message[]> = fc
  .oneof(
    fc
      .tuple(toolConversationArb(8), fc.nat())
      .map(([conversation, cut]) => conversation.slice(0, cut % (conversation.length + 1))),
    fc
      .tuple(toolConversationArb(6), openTurnArb)
      .map(([conversation, open]) => [...conversation, ...open]),
  )
  .filter((messages) => messages.some((m) => m.role !== 'system'));

/** The server's 400 text for the request, or `undefined` when it answered. */
const refusal = async (provider: Provider, messages: readonly Message[]) => {
  try {
    await provider.complete({
      model: provider.defaultModel ?? '',
      systemPrompt: 'You are a test.',
      messages,
    });
    return undefined;
  } catch (error) {
    // The SDK's error for the server's answer, not something that failed before the request.
    expect((error as { status?: unknown }).status).toBe(400);
    return (error as Error).message;
  }
};

/** The call ids a refusal for unanswered calls lists (both providers end the list with them). */
const missingIdsIn = (text: string): string[] | undefined => {
  const match =
    /did not have response messages: ([^"]*?)"/.exec(text) ??
    /without `tool_result` blocks immediately after: (.*?)\. Each/.exec(text);
  return match?.[1]?.split(', ');
};

describe('validateTranscript agrees with the providers (loopback servers)', () => {
  it('reports a problem exactly when the server refuses the request', async () => {
    const seen = { refused: 0, accepted: 0, endsOnCalls: 0 };
    await fc.assert(
      fc.asyncProperty(transcriptArb, async (messages) => {
        for (const target of ['openai', 'anthropic'] as const) {
          const violations = validateTranscript(messages, target);
          const refused = await refusal(providers[target], messages);
          expect(violations.length > 0, `${target}: ${refused ?? 'accepted'}`).toBe(
            refused !== undefined,
          );
          if (refused === undefined) {
            seen.accepted++;
            continue;
          }
          seen.refused++;
          const ids = missingIdsIn(refused);
          if (ids === undefined) continue;
          // The unanswered calls the server names are those a violation names.
          const unanswered = violations.filter((v) => v.rule === 'tool-call-without-result');
          expect(unanswered.some((v) => v.message.includes(`: ${ids.join(', ')}`))).toBe(true);
          if (unanswered.some((v) => v.message.includes('by the end of the transcript'))) {
            seen.endsOnCalls++;
          }
        }
      }),
      { numRuns: 150 },
    );
    // The generator reached every side: accepted requests, refused ones, and refusals for a
    // transcript that ends on calls without results.
    expect(seen.accepted).toBeGreaterThan(30);
    expect(seen.refused).toBeGreaterThan(30);
    expect(seen.endsOnCalls).toBeGreaterThan(10);
  });
});
