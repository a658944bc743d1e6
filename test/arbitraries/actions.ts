import fc from 'fast-check';
import { memoryActions, type MemoryAction } from 'conversation-memory';
import { messageArb } from './message';

/** Random memory actions: mostly messages, now and then a summary, a clear or an enforce. */
export const memoryActionArb: fc.Arbitrary<MemoryAction> = fc.oneof(
  { arbitrary: messageArb.map((m) => memoryActions.messageAdded(m)), weight: 8 },
  {
    arbitrary: fc.array(messageArb, { maxLength: 3 }).map((ms) => memoryActions.messagesAdded(ms)),
    weight: 2,
  },
  { arbitrary: fc.string({ maxLength: 8 }).map((t) => memoryActions.summaryApplied(t)), weight: 1 },
  { arbitrary: fc.constant(memoryActions.cleared()), weight: 1 },
  { arbitrary: fc.constant(memoryActions.limitsEnforced()), weight: 1 },
);

/** {@link memoryActionArb}, plus now and then another store's action (which changes nothing). */
export const anyActionArb: fc.Arbitrary<MemoryAction> = fc.oneof(
  { arbitrary: memoryActionArb, weight: 13 },
  { arbitrary: fc.constant({ type: 'other/action' } as unknown as MemoryAction), weight: 1 },
);
