import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMessage, createMemory, type Message } from 'conversation-memory';
import { messageText } from 'conversation-memory/tokens';
import { LOCAL_DEFAULT_MAX_TOKENS, LocalProvider } from 'conversation-memory/testing';
import { requestArb } from '../arbitraries/completionRequest';

/** Code points, as the provider counts characters. */
const chars = (text: string): number => Array.from(text).length;

/** What the provider counts for a message: its text, each call's name and JSON parameters. */
const messageChars = (message: Message): number =>
  chars(messageText(message)) +
  (message.toolCalls ?? []).reduce(
    (sum, call) => sum + chars(call.name) + chars(JSON.stringify(call.parameters)),
    0,
  );

const idsIn = (messages: readonly Message[]): Set<string | undefined> =>
  new Set(messages.flatMap((m) => [m.toolCallId, ...(m.toolCalls ?? []).map((c) => c.id)]));

describe('LocalProvider (property)', () => {
  it('answers any valid request with a valid assistant message within maxTokens', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const provider = new LocalProvider();
        const { message, usage } = await provider.complete(request);
        const maxTokens = request.maxTokens ?? LOCAL_DEFAULT_MAX_TOKENS;
        // A valid message: the library admits it as it is.
        expect(addMessage(createMemory(), message).state.messages).toEqual([message]);
        expect(message.role).toBe('assistant');
        const output = messageChars(message);
        expect(usage?.outputTokens).toBe(Math.ceil(output / 4));
        expect(usage?.outputTokens).toBeLessThanOrEqual(maxTokens);
        const input =
          chars(request.systemPrompt) +
          request.messages.reduce((sum, m) => sum + messageChars(m), 0) +
          (request.tools ?? []).reduce(
            (sum, t) =>
              sum + chars(t.name) + chars(t.description) + chars(JSON.stringify(t.parameters)),
            0,
          );
        expect(usage?.inputTokens).toBe(Math.ceil(input / 4));
        const calls = message.toolCalls ?? [];
        if (calls.length > 0) {
          expect(message.content).toBeNull();
          const names = new Set((request.tools ?? []).map((t) => t.name));
          const used = idsIn(request.messages);
          for (const call of calls) {
            expect(names.has(call.name)).toBe(true);
            expect(call.id).toMatch(/^call_\d+$/);
            expect(used.has(call.id)).toBe(false);
          }
          expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
        }
        // Deterministic: a fresh instance gives the same answer, ids included.
        expect(await new LocalProvider().complete(request)).toEqual({ message, usage });
      }),
    );
  });
});
