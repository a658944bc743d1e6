/**
 * Round trips between our messages and Chat Completions messages, for generated conversations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { fromOpenAIChat } from 'conversation-memory';
import { toOpenAIChat } from 'conversation-memory';
import { messageArb } from '../arbitraries/message';
import { inOpenAIChatSubset, openaiChatConversationArb } from '../arbitraries/openaiChat';

const decode = (input: unknown): Message[] => {
  const result = fromOpenAIChat(input);
  if (result._tag === 'Left') throw result.left;
  return result.right;
};

describe('toOpenAIChat / fromOpenAIChat round trips', () => {
  it('the generator stays in the stated subset', () => {
    fc.assert(
      fc.property(openaiChatConversationArb, (messages) => {
        fc.pre(inOpenAIChatSubset(messages));
        return true;
      }),
    );
    // And it is not vacuous: most generated conversations are in the subset.
    const sample = fc.sample(openaiChatConversationArb, { numRuns: 200, seed: 1 });
    expect(sample.filter(inOpenAIChatSubset).length).toBeGreaterThan(190);
  });

  it('fromOpenAIChat(toOpenAIChat(messages)) gives back messages in the subset exactly', () => {
    fc.assert(
      fc.property(openaiChatConversationArb, (messages) => {
        fc.pre(inOpenAIChatSubset(messages));
        expect(decode(toOpenAIChat(messages))).toEqual(messages);
      }),
    );
  });

  it('the wire messages survive JSON, as they do on their way to the API', () => {
    fc.assert(
      fc.property(openaiChatConversationArb, (messages) => {
        fc.pre(inOpenAIChatSubset(messages));
        const wire = JSON.parse(JSON.stringify(toOpenAIChat(messages))) as unknown;
        expect(decode(wire)).toEqual(messages);
      }),
    );
  });

  it('for any messages, decoding the wire form and writing it again changes nothing', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        const wire = toOpenAIChat(messages);
        const decoded = fromOpenAIChat(wire);
        // Decoding fails exactly when a call or a result has no id, which OpenAI requires.
        const missingIds = messages.some(
          (m) =>
            (m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.id === undefined)) ||
            (m.role === 'tool' && m.toolCallId === undefined),
        );
        expect(decoded._tag).toBe(missingIds ? 'Left' : 'Right');
        if (decoded._tag === 'Right') expect(toOpenAIChat(decoded.right)).toEqual(wire);
      }),
    );
  });

  it('random messages that happen to fall in the subset round-trip too', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { minLength: 1, maxLength: 4 }), (messages) => {
        const decoded = fromOpenAIChat(toOpenAIChat(messages));
        if (inOpenAIChatSubset(messages))
          expect(decoded).toEqual({ _tag: 'Right', right: messages });
      }),
    );
  });
});
