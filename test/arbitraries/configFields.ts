import fc from 'fast-check';
import type { MemoryConfig } from 'conversation-memory';
import { tokenizerArb } from './config';

/**
 * An embedder a test registers (with `registerEmbedder`) so that `embedder` has a valid value
 * other than the default; the tests that use {@link CONFIG_VALUE_ARBS} register it.
 */
export const TEST_EMBEDDER = 'config-fields-test';

/**
 * Every valid value of each config field, over its whole domain (not only the reference's
 * policy, as `configArb`): one arbitrary per field of `MemoryConfig`, so a new field does not
 * compile until it has one (docs/design.md, "Adding a config field").
 */
export const CONFIG_VALUE_ARBS: {
  readonly [K in keyof MemoryConfig]: fc.Arbitrary<MemoryConfig[K]>;
} = {
  maxMessages: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  maxTokens: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: null }),
  tokenizer: tokenizerArb,
  toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
  startOn: fc.constantFrom('user' as const, null),
  pinSystem: fc.boolean(),
  prune: fc.constantFrom('oldest' as const, 'redundant' as const),
  pruneThreshold: fc.oneof(
    fc.constant(1),
    fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }),
  ),
  embedder: fc.constantFrom('lexical', TEST_EMBEDDER),
  trimTo: fc.oneof(fc.constant(1), fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true })),
};

/** A valid config with every field drawn from its whole domain. */
export const anyConfigArb: fc.Arbitrary<MemoryConfig> = fc.record(CONFIG_VALUE_ARBS);
