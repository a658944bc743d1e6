import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from 'conversation-memory';
import { validateTranscript } from 'conversation-memory';
import { type TranscriptProvider } from 'conversation-memory';
import { TRANSCRIPT_RULES } from 'conversation-memory/constants';
import { messageArb } from '../arbitraries/message';
import { identifierArb } from '../arbitraries/text';

const PROVIDERS: readonly TranscriptProvider[] = ['openai', 'anthropic'];

/** Text with a character that is not whitespace, so Anthropic counts it as content. */
const wordsArb = fc.string({ maxLength: 20 }).map((s) => `t${s}`);

/** One turn before ids are given: assistant text, or 1–3 calls whose results come in any order. */
type TurnPlan =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tools';
      readonly content: string | null;
      readonly names: readonly string[];
      readonly order: readonly number[];
    };

const toolTurnArb: fc.Arbitrary<TurnPlan> = fc.integer({ min: 1, max: 3 }).chain((n) =>
  fc.record({
    kind: fc.constant('tools' as const),
    content: fc.constantFrom('', null, 'Let me check.'),
    names: fc.array(identifierArb, { minLength: n, maxLength: n }),
    order: fc.shuffledSubarray([0, 1, 2].slice(0, n), { minLength: n, maxLength: n }),
  }),
);

const turnArb: fc.Arbitrary<TurnPlan> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: wordsArb }),
  toolTurnArb,
);

/** Before each turn (and at the end): sometimes a system message, sometimes a user message. */
const stepArb = fc.record({
  system: fc.option(wordsArb, { nil: undefined, freq: 2 }),
  user: fc.option(wordsArb, { nil: undefined, freq: 2 }),
  turn: turnArb,
});

/**
 * A well-formed conversation: optional system message, a user message, then turns of assistant
 * text or of an assistant tool-call message (1–3 calls, ids unique in the conversation) followed
 * directly by all its results in any order; system and user messages appear only between turns.
 */
const conversationArb: fc.Arbitrary<Message[]> = fc
  .record({
    leadingSystem: fc.option(wordsArb, { nil: undefined }),
    first: wordsArb,
    steps: fc.array(stepArb, { maxLength: 8 }),
    trailingSystem: fc.option(wordsArb, { nil: undefined, freq: 3 }),
  })
  .map(({ leadingSystem, first, steps, trailingSystem }) => {
    const out: Message[] = [];
    const system = (text: string | undefined) => {
      if (text !== undefined) out.push({ role: 'system', content: text });
    };
    system(leadingSystem);
    out.push({ role: 'user', content: first });
    let next = 0;
    for (const { system: note, user, turn } of steps) {
      system(note);
      if (user !== undefined) out.push({ role: 'user', content: user });
      if (turn.kind === 'text') {
        out.push({ role: 'assistant', content: turn.text });
        continue;
      }
      const calls = turn.names.map((name) => ({ id: `call_${next++}`, name, parameters: {} }));
      out.push({ role: 'assistant', content: turn.content, toolCalls: calls });
      for (const i of turn.order) {
        const { id, name } = calls[i] ?? { id: '?', name: '?' };
        out.push({ role: 'tool', content: `result ${i}`, toolCallId: id, toolName: name });
      }
    }
    system(trailingSystem);
    return out;
  });

/** Messages the provider's view steps over when pairing: tool results, and lifted system ones. */
const skipped = (message: Message | undefined, provider: TranscriptProvider): boolean =>
  message?.role === 'tool' || (provider === 'anthropic' && message?.role === 'system');

/**
 * The neighbours of the hole left at `k` in `rest`: `left`, the last message before the hole
 * that is not skipped over, and `right`, the first one at or after it (`undefined` when none).
 */
const neighbours = (rest: readonly Message[], k: number, provider: TranscriptProvider) => {
  let left: number | undefined;
  for (let i = k - 1; i >= 0 && left === undefined; i--) {
    if (!skipped(rest[i], provider)) left = i;
  }
  let right: number | undefined;
  for (let i = k; i < rest.length && right === undefined; i++) {
    if (!skipped(rest[i], provider)) right = i;
  }
  return { left, right };
};

/**
 * What deleting `conversation[k]` must give, as `[index, rule]` pairs (indices in `rest`):
 * - a system message, an assistant text message: nothing;
 * - a user message: nothing, except for Anthropic when it was the first user turn and an
 *   assistant message now comes first: `first-message-not-user` at `right`;
 * - an assistant tool-call message: `tool-result-without-call` at each of its m results, which
 *   now sit at k … k+m−1, the run right after the hole;
 * - a tool result: `tool-call-without-result` at `left` (its assistant message), also when no
 *   message other than tool results (and, for Anthropic, system messages) follows the hole: a
 *   request that ends on a call without its result is refused like any other.
 * So every violation points at `left`, at `right`, or at a tool result between the hole and
 * `right`: the messages next to the hole, once tool results and lifted system messages are
 * stepped over.
 */
const expected = (
  conversation: readonly Message[],
  k: number,
  provider: TranscriptProvider,
): (readonly [number, string])[] => {
  const deleted = conversation[k];
  const rest = conversation.filter((_, i) => i !== k);
  const { left, right } = neighbours(rest, k, provider);
  if (deleted === undefined || deleted.role === 'system') return [];
  if (deleted.role === 'user') {
    const firstIsAssistant = right !== undefined && rest[right]?.role === 'assistant';
    return provider === 'anthropic' && left === undefined && firstIsAssistant
      ? [[right, 'first-message-not-user']]
      : [];
  }
  if (deleted.role === 'assistant') {
    const results = deleted.toolCalls?.length ?? 0;
    return Array.from({ length: results }, (_, i) => [k + i, 'tool-result-without-call'] as const);
  }
  return left === undefined ? [] : [[left, 'tool-call-without-result']];
};

describe('validateTranscript (properties)', () => {
  it('well-formed conversations have no violations, for both providers', () => {
    fc.assert(
      fc.property(conversationArb, (conversation) => {
        for (const provider of PROVIDERS) {
          expect(validateTranscript(conversation, provider)).toEqual([]);
        }
      }),
    );
  });

  it('deleting one message from the middle gives exactly the violations next to the hole', () => {
    fc.assert(
      fc.property(conversationArb, (conversation) => {
        for (let k = 1; k < conversation.length - 1; k++) {
          const rest = conversation.filter((_, i) => i !== k);
          for (const provider of PROVIDERS) {
            const found = validateTranscript(rest, provider).map((v) => [v.index, v.rule]);
            expect(found, `deleted messages[${k}] (${provider})`).toEqual(
              expected(conversation, k, provider),
            );
          }
        }
      }),
    );
  });

  it('is total on any messages: no throw, indices in range, known rules, sorted, one-line text', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 12 }), (messages) => {
        const frozen = Object.freeze(messages.map((m) => Object.freeze(m)));
        for (const provider of PROVIDERS) {
          const violations = validateTranscript(frozen, provider);
          expect(validateTranscript(frozen, provider)).toEqual(violations);
          for (const [i, v] of violations.entries()) {
            expect(v.index).toBeGreaterThanOrEqual(i === 0 ? 0 : (violations[i - 1]?.index ?? 0));
            expect(v.index).toBeLessThan(messages.length);
            expect(TRANSCRIPT_RULES).toContain(v.rule);
            expect(v.message).not.toMatch(/[\n\r\u2028\u2029]/);
          }
        }
      }),
    );
  });
});
