import fc from 'fast-check';
import { memoryActions, type MemoryAction } from 'conversation-memory';
import { messageArb } from './message';

/** A config change: a limit or two, now and then a policy field or the other counting tokenizer. */
const reconfiguredArb: fc.Arbitrary<MemoryAction> = fc
  .record(
    {
      maxMessages: fc.integer({ min: 1, max: 6 }),
      maxTokens: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
      tokenizer: fc.constantFrom('heuristic', 'o200k_base'),
      toolPairs: fc.constantFrom('reference' as const, 'strict' as const),
      startOn: fc.constantFrom(null, 'user' as const),
      pinSystem: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((fields) => memoryActions.reconfigured(fields));

/**
 * Random memory actions: mostly messages, now and then a summary, a clear, an enforce or a
 * config change (`memory/reconfigured`).
 */
export const memoryActionArb: fc.Arbitrary<MemoryAction> = fc.oneof(
  { arbitrary: messageArb.map((m) => memoryActions.messageAdded(m)), weight: 8 },
  {
    arbitrary: fc.array(messageArb, { maxLength: 3 }).map((ms) => memoryActions.messagesAdded(ms)),
    weight: 2,
  },
  { arbitrary: fc.string({ maxLength: 8 }).map((t) => memoryActions.summaryApplied(t)), weight: 1 },
  { arbitrary: fc.constant(memoryActions.cleared()), weight: 1 },
  { arbitrary: fc.constant(memoryActions.limitsEnforced()), weight: 1 },
  { arbitrary: reconfiguredArb, weight: 1 },
);

/** {@link memoryActionArb}, plus now and then another store's action (which changes nothing). */
export const anyActionArb: fc.Arbitrary<MemoryAction> = fc.oneof(
  { arbitrary: memoryActionArb, weight: 13 },
  { arbitrary: fc.constant({ type: 'other/action' } as unknown as MemoryAction), weight: 1 },
);
