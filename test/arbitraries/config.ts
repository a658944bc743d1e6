import fc from 'fast-check';
import { DEFAULT_CONFIG, type MemoryConfig, type TokenizerName } from 'conversation-memory';
import { registerTokenizer } from 'conversation-memory/tokens';

/**
 * A custom tokenizer, as users register one: whitespace-separated words of the content plus one
 * per tool call and per content part (so messages without content still weigh something).
 */
export const WORDS_TOKENIZER = 'prop-test-words';
registerTokenizer(
  WORDS_TOKENIZER,
  (message) =>
    (message.content ?? '').split(/\s+/).filter((word) => word !== '').length +
    (message.toolCalls?.length ?? 0) +
    (message.contentParts?.length ?? 0),
);

/** A message limit: mostly 1..5 (so trimming happens often), sometimes up to 12. */
export const maxMessagesArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 2 },
);

/** A token limit: `null` (no token rule) or 1..60, small enough that the token rule fires. */
export const maxTokensArb: fc.Arbitrary<number | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 2 },
);

/**
 * A `trimTo`: 1 (the reference's trim, on every add that passes a limit) a third of the time, else
 * a step ratio: the 0.5 or 0.7, or any number above 0 and at most 1.
 */
export const trimToArb: fc.Arbitrary<number> = fc.oneof(
  fc.constant(1),
  fc.constantFrom(0.5, 0.7),
  fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
);

/**
 * A tokenizer name: mostly `'heuristic'`, sometimes a real gpt-tokenizer encoding or a registered
 * custom tokenizer.
 */
export const tokenizerArb: fc.Arbitrary<TokenizerName> = fc.oneof(
  { arbitrary: fc.constant('heuristic' as const), weight: 6 },
  { arbitrary: fc.constantFrom('o200k_base' as const, 'cl100k_base' as const), weight: 1 },
  { arbitrary: fc.constant(WORDS_TOKENIZER), weight: 1 },
);

/**
 * A valid memory config with any of the tokenizers above; every other field at its default (the
 * reference's policy; `anyConfigArb` in ./configFields draws every field).
 */
export const configArb: fc.Arbitrary<MemoryConfig> = fc
  .record({ maxMessages: maxMessagesArb, maxTokens: maxTokensArb, tokenizer: tokenizerArb })
  .map((limits) => ({ ...DEFAULT_CONFIG, ...limits }));

/** A valid memory config counting with `'heuristic'`, the reference memory's own count. */
export const heuristicConfigArb: fc.Arbitrary<MemoryConfig> = fc
  .record({ maxMessages: maxMessagesArb, maxTokens: maxTokensArb })
  .map((limits) => ({ ...DEFAULT_CONFIG, ...limits, tokenizer: 'heuristic' }));
